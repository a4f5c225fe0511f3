/** Limits of the service interface (spec section 8), named once: client checks, sandbox rules and help texts. */
export const LIMITS = {
  /** Items in one page of a list. */
  count: 100,
  notesPairs: 15,
  notesValueChars: 256,
  receiptChars: 40,
  referenceIdChars: 40,
  narrationChars: 30,
  descriptionChars: 255,
} as const;
