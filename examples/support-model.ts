import type { MockModelRequest, MockModelResponse } from "tooltrace";

/**
 * The support scenario's model, shared by the framework examples: it reads the conversation it receives, as
 * the real one would, hands off to billing where it can, looks the order up, refunds it if delivered, and says so.
 */
export function supportModel({ lastUserMessage, messages, tools }: MockModelRequest): MockModelResponse | string {
  const orderId = /#(\w+)/.exec(lastUserMessage ?? "")?.[1];
  const last = messages.at(-1);
  const result = last?.toolResults?.[0];
  // A triage agent that can hand off to billing does so; billing starts where the transfer left off.
  if (last?.role === "user" && tools.some((tool) => tool.name === "transfer_to_billing"))
    return { toolCalls: [{ name: "transfer_to_billing", input: {} }] };
  if (last?.role === "user" || result?.name === "transfer_to_billing")
    return orderId
      ? { toolCalls: [{ name: "lookup_order", input: { order_id: orderId } }] }
      : "Which order is it about? Please give me its number.";
  if (result?.name === "lookup_order") {
    if (result.isError || typeof result.output !== "object")
      return `I could not look order #${orderId} up right now. Please try again later.`;
    const order = result.output as { status: string };
    if (order.status !== "delivered") return `Order #${orderId} is ${order.status}, so it cannot be refunded yet.`;
    return { toolCalls: [{ name: "refund_order", input: { order_id: orderId, reason: "customer request" } }] };
  }
  if (result?.name === "refund_order") return `Refunded order #${orderId}.`;
  return "Sorry, something went wrong.";
}
