import { MSG } from '@helix/shared';
import { deleteModel, type Model } from '../../models/models.api';
import { ConfirmDeleteModal } from '../../ui/confirm-delete.modal';

/** Deleting a model of the catalogue (the client shows a refusal; the dialog stays). */
export function DeleteModelModal({
  model,
  onClose,
  onDeleted,
}: {
  model: Model;
  onClose(): void;
  onDeleted(id: number): void;
}) {
  return (
    <ConfirmDeleteModal
      title={MSG.deleteModelTitle}
      body={MSG.deleteModelBody(model.name)}
      deleted={MSG.modelDeleted}
      remove={() => deleteModel(model.id)}
      onDeleted={() => onDeleted(model.id)}
      onClose={onClose}
    />
  );
}
