/**
 * A card's failure under the card field, in the buyer's words (issue 15: "card errors where the card
 * is"). It stays until the card is edited; antd's field-error look, and role alert so it is read out.
 */
export function CardErrorText({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="card-error ant-form-item-explain-error" role="alert" data-testid="card-error">
      {message}
    </div>
  );
}
