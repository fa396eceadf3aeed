import { ConfigProvider, message } from 'antd';
import { theme } from './theme';

/*
 * Toasts are antd's static message, drawn in a container of their own on the page's body with the
 * app's theme (holderRender). A toast is therefore independent of the routed screens: one shown
 * just before a page goes away (an error followed by a logout, a save followed by a redirect) stays up
 * on the next page. A holder inside the routes (message.useMessage) is unmounted with the screen, and
 * its toasts with it. This module is loaded with the first toast (./notify.ts), never with the entry.
 */
ConfigProvider.config({
  holderRender: (children) => <ConfigProvider theme={theme}>{children}</ConfigProvider>,
});

export { message };
