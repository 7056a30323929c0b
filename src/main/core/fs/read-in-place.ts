import { constants } from 'node:fs';

/**
 * Flags for reading a file an agent can reach: never through a link it put in the file's place,
 * and without waiting, so a named pipe it left there cannot hold the reader.
 */
export const READ_IN_PLACE =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
