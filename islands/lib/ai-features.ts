import { useEffect, useState } from "react";
import type { AiFeature } from "../../src/shared/contracts";
import { callApi } from "./api";

let asked: Promise<AiFeature[]> | null = null;

/** The AI features the installation offers now (none while AI is off), asked once per page. */
export function useAiFeatures(): AiFeature[] {
  const [features, setFeatures] = useState<AiFeature[]>([]);
  useEffect(() => {
    asked ??= callApi("GET /ai/features").then(
      (answer) => answer.features,
      () => [],
    );
    let shown = true;
    void asked.then((list) => shown && setFeatures(list));
    return () => {
      shown = false;
    };
  }, []);
  return features;
}
