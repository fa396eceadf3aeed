import { Button, Modal } from 'antd';
import { useAtom } from 'jotai';
import { MSG } from '@helix/shared';
import { multipleLoginOpenAtom } from '../session/session.atoms';
import { clearLocalSession } from '../session/session';
import { Themed } from '../ui/themed';

/**
 * Shown on 401 'Invalid token': a newer login elsewhere ended this session. It cannot be dismissed,
 * because every further call would fail the same way.
 */
export function MultipleLoginModal() {
  const [open, setOpen] = useAtom(multipleLoginOpenAtom);
  // Clearing the session is enough: the route guard takes the user to (their brand's) login.
  const goToLogin = () => {
    setOpen(false);
    clearLocalSession();
  };

  return (
    <Themed>
      <Modal
        open={open}
        title={MSG.multipleLoginTitle}
        closable={false}
        keyboard={false}
        mask={{ closable: false }}
        modalRender={(node) => <div data-testid="multiple-login-modal">{node}</div>}
        footer={
          <Button type="primary" onClick={goToLogin}>
            Go to login
          </Button>
        }
      >
        <p>{MSG.multipleLogin}</p>
      </Modal>
    </Themed>
  );
}
