import { Alert, Button, Form, Spin, Typography } from 'antd';
// The input itself, not antd's Input namespace (apps/web/README.md, "Loading"): a tablet's first page.
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { JoinLesson, LESSON_LIMITS } from '@helix/shared/lessons';
import { applyServerErrors } from '../../forms/server-errors';
import { useTypedBeforeHydration } from '../../forms/typed-before-hydration';
import { zodRule } from '../../forms/zod-rule';
import { joinLesson } from '../../lessons/lessons.api';
import { keepSeat } from '../../lessons/pupil-seat';
import { useSessionUser } from '../../session/use-session';
import { PageTitle } from '../../ui/page-title';
import { refusalText } from './join-refusal';
import { useLtiJoin } from './use-lti-join';
import './join.css';

interface JoinValues {
  code: string;
  name?: string;
}

const FORM = 'join-lesson';
const FIELDS = ['code', 'name'] as const;

/** A code as typed on a tablet: capitals, no spaces (the schema checks the rest). */
const asCode = (value: unknown) =>
  typeof value === 'string' ? value.toUpperCase().replace(/\s+/g, '') : value;

/**
 * /join and /join/{code} (the code from the teacher's link or QR code): a pupil joins a live lesson by
 * its code and a name of their choosing (a signed-in user joins under their own). Rendered on the
 * server for a signed-out visitor (src/server-render/route-prefetch.ts), so a tablet shows the form at
 * once; what is typed before hydration is kept. A learner's LTI launch lands here with its ticket after
 * `#lti=` and joins with it, without the form (use-lti-join.ts); the form is the way in if it is refused.
 */
export function JoinPage() {
  const { code } = useParams();
  const user = useSessionUser();
  const [form] = Form.useForm<JoinValues>();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  useTypedBeforeHydration(form, FORM, user ? ['code'] : FIELDS);
  const joiningByLti = useLtiJoin(setRefusal);

  const onFinish = async (values: JoinValues) => {
    const input = user ? { code: values.code } : { code: values.code, name: values.name ?? '' };
    const parsed = JoinLesson.safeParse(input);
    if (!parsed.success) return;
    setBusy(true);
    setRefusal(null);
    try {
      const seat = await joinLesson(parsed.data);
      keepSeat(seat);
      void navigate(`/lesson/${encodeURIComponent(seat.lessonId)}`);
    } catch (error) {
      applyServerErrors(form, error, FIELDS);
      setRefusal(refusalText(error));
      setBusy(false);
    }
  };

  return (
    <>
      <PageTitle title="Join a lesson" />
      <Typography.Title level={1} className="auth-title">
        Join a lesson
      </Typography.Title>
      {joiningByLti && (
        <div className="join-lti" role="status" data-testid="join-lti">
          <Spin />
          <p>Joining the lesson…</p>
        </div>
      )}
      <Form<JoinValues>
        hidden={joiningByLti}
        form={form}
        name={FORM}
        layout="vertical"
        requiredMark={false}
        initialValues={{ code: asCode(code ?? ''), name: '' }}
        onFinish={(values) => void onFinish(values)}
        onValuesChange={() => setRefusal(null)}
      >
        <Form.Item label="Lesson code" name="code" normalize={asCode} rules={[zodRule(JoinLesson, 'code')]}>
          <Input
            className="join-code-input"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            size="large"
          />
        </Form.Item>
        {user ? (
          <p className="join-as" data-testid="join-as">
            You join as <strong>{user.name}</strong>.
          </p>
        ) : (
          <Form.Item label="Your name" name="name" rules={[zodRule(JoinLesson, 'name')]}>
            <Input autoComplete="nickname" maxLength={LESSON_LIMITS.pupilName} size="large" />
          </Form.Item>
        )}
        {refusal && (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={refusal}
            className="form-alert"
            data-testid="join-refused"
          />
        )}
        <Button type="primary" htmlType="submit" block size="large" loading={busy}>
          Join
        </Button>
      </Form>
    </>
  );
}
