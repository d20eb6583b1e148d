/** One line of an order or cart, as any source reports it. */
export interface LineItem {
  name: string;
  quantity: number;
}
