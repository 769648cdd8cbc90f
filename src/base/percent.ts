/** A share (0.625) as a percentage to a tenth: `62.5%`. */
export function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/** A change to a tenth with its sign, and a unit: `+12.5pt`, `-3%`, `0`. */
export function signed(value: number, unit = ""): string {
  const rounded = Math.round(value * 10) / 10;
  return `${rounded > 0 ? "+" : ""}${rounded}${unit}`;
}
