import { MSG } from '@helix/shared';
import { ConfirmDeleteModal } from '../../ui/confirm-delete.modal';
import { toastError } from '../../ui/notify';
import { deleteUser } from './users.api';

/** 'Are You Sure?' / 'Do you want to delete this user?' */
export function DeleteUserModal({
  user,
  onClose,
  onDeleted,
}: {
  user: { id: number; email: string };
  onClose(): void;
  onDeleted(id: number): void;
}) {
  const remove = () =>
    deleteUser(user, { toast: false }).catch((error: unknown) => {
      // The server's message when it gave one ('The owner ... cannot be deleted'), else the spec's.
      toastError(
        error instanceof Error && error.message !== MSG.defaultError ? error.message : MSG.failedDeleteUser,
      );
      throw error;
    });
  return (
    <ConfirmDeleteModal
      title={MSG.deleteUserTitle}
      body={MSG.deleteUserBody}
      deleted={MSG.userDeleted}
      remove={remove}
      onDeleted={() => onDeleted(user.id)}
      onClose={onClose}
    />
  );
}
