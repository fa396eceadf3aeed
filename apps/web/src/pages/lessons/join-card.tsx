import { CopyOutlined } from '@ant-design/icons';
import { Button, QRCode, Space } from 'antd';
import Input from 'antd/es/input/Input';
import { MSG } from '@helix/shared';
import type { LessonSummary } from '@helix/shared/lessons';
import { copyText } from '../../models/copy-text';
import { toastError, toastSuccess } from '../../ui/notify';

/**
 * How the class gets in: the join code large enough to read off a projected screen, the QR code of
 * the join link for tablets' cameras, and the link itself to paste into a class chat.
 */
export function JoinCard({ lesson }: { lesson: LessonSummary }) {
  const copy = async () => {
    if (await copyText(lesson.joinUrl)) toastSuccess(MSG.linkCopied);
    else toastError(MSG.defaultError);
  };
  return (
    <section className="lesson-join" aria-labelledby="lesson-join-title">
      <h2 id="lesson-join-title" className="lesson-panel-title">
        Join code
      </h2>
      {/* One character per box so 0/O-free codes stay readable from the back of the room. */}
      <p className="lesson-code" data-testid="lesson-code" aria-label={`Join code ${lesson.code}`}>
        {lesson.code}
      </p>
      <figure className="lesson-qr">
        <QRCode value={lesson.joinUrl} size={168} type="svg" bordered={false} aria-hidden />
        <figcaption>Scan to join, or go to the link below.</figcaption>
      </figure>
      <Space.Compact className="lesson-link">
        <Input readOnly value={lesson.joinUrl} aria-label="Join link" onFocus={(e) => e.target.select()} />
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          Copy
        </Button>
      </Space.Compact>
    </section>
  );
}
