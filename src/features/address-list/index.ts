export { AddressListPage } from './AddressListPage';
