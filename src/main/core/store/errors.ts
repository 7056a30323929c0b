// Errors the store throws or rejects with. Callers map them: input errors to 400, write errors to "fail closed".

/** The database was written by a newer Gatehouse; opening it with older code could corrupt it. */
export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
  constructor(
    readonly path: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The history database ${path} is at schema version ${found}, but this Gatehouse only understands ` +
        `versions up to ${supported}. Run a Gatehouse release that is at least as new as the one that last ` +
        `wrote this file, or move the file aside to start a new history (the old file is left untouched).`,
    );
  }
}

/** The caller passed something the store will not record or cannot query (bad shape, bad cursor). */
export class StoreInputError extends Error {
  override readonly name = 'StoreInputError';
}

/** One record was refused when its transaction ran (unknown request, duplicate id, option not offered). */
export class RecordRejectedError extends Error {
  override readonly name = 'RecordRejectedError';
}

/** The transaction that should have committed a record failed; nothing in that batch was written. */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
}

export class StoreClosedError extends Error {
  override readonly name = 'StoreClosedError';
  constructor() {
    super('The history store is closed.');
  }
}
