import { Button, Popconfirm, Tag } from 'antd';
import type { LessonPupil } from '@helix/shared/lessons';

export interface RosterActions {
  giveControl(pupil: LessonPupil): void;
  takeBack(): void;
  remove(pupil: LessonPupil): void;
}

/**
 * Who is in the lesson, as the teacher sees it: each pupil's name (as they typed it: React text, never
 * markup), whether their tablet is connected and whether they signed in, with Give control / Take
 * back and Remove (confirmed).
 */
export function LessonRoster({
  pupils,
  control,
  disabled,
  actions,
}: {
  pupils: LessonPupil[];
  control: string | null;
  /** The connection is down: commands would not arrive. */
  disabled: boolean;
  actions: RosterActions;
}) {
  const connected = pupils.filter((p) => p.connected).length;
  return (
    <section className="lesson-roster" aria-labelledby="lesson-roster-title">
      <h2 id="lesson-roster-title" className="lesson-panel-title">
        Pupils{' '}
        <span
          className="lesson-count"
          data-testid="lesson-pupil-count"
        >{`${connected} of ${pupils.length} connected`}</span>
      </h2>
      {pupils.length === 0 ? (
        <p className="lesson-empty">No one has joined yet.</p>
      ) : (
        <ul className="lesson-pupils" aria-label="Pupils in the lesson">
          {pupils.map((pupil) => {
            const leads = control === pupil.id;
            return (
              <li
                key={pupil.id}
                className="lesson-pupil"
                data-testid="lesson-pupil"
                data-connected={pupil.connected}
              >
                <span className="lesson-pupil-name">
                  <span
                    className={pupil.connected ? 'lesson-dot is-on' : 'lesson-dot'}
                    role="img"
                    aria-label={pupil.connected ? 'Connected' : 'Not connected'}
                  />
                  <span className="lesson-pupil-text">{pupil.name}</span>
                  {pupil.signedIn && <Tag className="lesson-signed-in">Signed in</Tag>}
                  {leads && <Tag color="purple">Has control</Tag>}
                </span>
                <span className="lesson-pupil-actions">
                  {leads ? (
                    <Button
                      size="small"
                      disabled={disabled}
                      aria-label={`Take back control from ${pupil.name}`}
                      onClick={actions.takeBack}
                    >
                      Take back
                    </Button>
                  ) : (
                    <Button
                      size="small"
                      disabled={disabled || !pupil.connected}
                      aria-label={`Give control to ${pupil.name}`}
                      onClick={() => actions.giveControl(pupil)}
                    >
                      Give control
                    </Button>
                  )}
                  <Popconfirm
                    title={`Remove ${pupil.name} from the lesson?`}
                    okText="Remove"
                    okButtonProps={{ danger: true }}
                    cancelText="Cancel"
                    onConfirm={() => actions.remove(pupil)}
                    disabled={disabled}
                  >
                    <Button size="small" danger disabled={disabled} aria-label={`Remove ${pupil.name}`}>
                      Remove
                    </Button>
                  </Popconfirm>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
