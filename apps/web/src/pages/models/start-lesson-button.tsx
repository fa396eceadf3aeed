import { TeamOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { startLesson } from '../../lessons/lessons.api';
import { lessonKeys } from '../../lessons/lessons.queries';
import type { Model } from '../../models/models.api';

/**
 * Start a live lesson on the model in the viewer (shown when the model's `lesson` ability says the
 * user may): POST /lessons, then the teacher's lesson page, which starts with the answer (no second
 * call). A refusal (plan, permission, model gone) is the server's message, toasted by the client.
 */
export function StartLessonButton({ model }: { model: Pick<Model, 'id'> }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: () => startLesson({ modelId: model.id }),
    onSuccess: (answer) => {
      queryClient.setQueryData(lessonKeys.forTeacher(answer.lesson.id), answer);
      void navigate(`/user/lessons/${encodeURIComponent(answer.lesson.id)}`);
    },
  });
  return (
    <Button icon={<TeamOutlined />} loading={start.isPending} onClick={() => start.mutate()}>
      Start live lesson
    </Button>
  );
}
