export { failureCodeOf, observedModelPort, observedStepRunner, observedToolCall } from "./observed-ports.js";
export {
  budgetAttributes,
  type ModelCallRecord,
  NO_TELEMETRY,
  outcomeOf,
  type RequestEntry,
  type RequestIdentity,
  type RoutePath,
  routePathOf,
  type SpanAttributes,
  type SpanValue,
  type Telemetry,
  type TelemetrySpan,
} from "./telemetry.js";
