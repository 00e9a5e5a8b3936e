// The error every function of the package throws on bad input.

/**
 * A refusal from the library: `kind` says what was wrong (`fen`, `notation`, `illegal`,
 * `record`, `option`, `engine`), `message` says it in the library's words; an illegal move
 * carries the rule it breaks as `reason` (`horse_leg`, `flying_general`, ...), a move of a
 * list its `index`.
 */
export class XiangqiError extends Error {
  constructor(kind, message, details = {}) {
    super(message);
    this.name = 'XiangqiError';
    this.kind = kind;
    if (details.reason !== undefined) this.reason = details.reason;
    if (details.index !== undefined) this.index = details.index;
  }

  /** The error as a plain object, to cross a worker boundary. */
  toJSON() {
    return { kind: this.kind, message: this.message, reason: this.reason, index: this.index };
  }

  /** An error rebuilt from `toJSON`'s object. */
  static from(obj) {
    return new XiangqiError(obj.kind, obj.message, obj);
  }
}
