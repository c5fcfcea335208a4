// The cash-out feature's public face: the modal My Cards opens.
export { CashoutModal } from './CashoutModal';
