/** A command's error as the core named it (NotFoundError, ValidationError, ...). */
export class ApiError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
