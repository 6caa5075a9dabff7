declare module "parse-prometheus-text-format" {
  /** Families of metrics as the Prometheus text parser reads them. */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
