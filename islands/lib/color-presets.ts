/** The preset colours offered for queues and tags: ten hues in five shades, light to dark. */
export const COLOR_PRESETS: readonly string[] = [
  "#ef9a9a",
  "#e57373",
  "#f44336",
  "#d32f2f",
  "#b71c1c",
  "#f48fb1",
  "#f06292",
  "#e91e63",
  "#c2185b",
  "#880e4f",
  "#ce93d8",
  "#ba68c8",
  "#9c27b0",
  "#7b1fa2",
  "#4a148c",
  "#9fa8da",
  "#7986cb",
  "#3f51b5",
  "#303f9f",
  "#1a237e",
  "#90caf9",
  "#64b5f6",
  "#2196f3",
  "#1976d2",
  "#0d47a1",
  "#80deea",
  "#4dd0e1",
  "#00bcd4",
  "#0097a7",
  "#006064",
  "#a5d6a7",
  "#81c784",
  "#4caf50",
  "#388e3c",
  "#1b5e20",
  "#e6ee9c",
  "#dce775",
  "#cddc39",
  "#afb42b",
  "#827717",
  "#ffcc80",
  "#ffb74d",
  "#ff9800",
  "#f57c00",
  "#e65100",
  "#bcaaa4",
  "#a1887f",
  "#795548",
  "#5d4037",
  "#3e2723",
];

/** The relative luminance of a `#rrggbb` colour (WCAG 2). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Black or white, whichever reads better on a chosen colour (a tag's chip); white for anything not `#rrggbb`. */
export function textColorOn(background: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(background)) return "#fff";
  const l = luminance(background);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? "#000" : "#fff";
}
