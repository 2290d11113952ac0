import type { PaginationProps } from 'antd';
import { cloneElement, isValidElement, type ReactElement } from 'react';

const NAMES: Partial<Record<string, string>> = { prev: '上一页', next: '下一页', 'jump-prev': '向前 5 页', 'jump-next': '向后 5 页' };

/**
 * A table's pager with Chinese names on its arrows. antd's 上一页 / 下一页 are buttons holding only an
 * arrow, named by the icon's English "left" / "right" (the Chinese title sits on the list item around
 * them, which a screen reader does not read for the button and a hover over a disabled one never
 * shows): each gets its Chinese name and the same tooltip.
 */
export const pageLinks: NonNullable<PaginationProps['itemRender']> = (_page, type, element) => {
  const name = NAMES[type];
  if (!name || !isValidElement(element)) return element;
  return cloneElement(element as ReactElement<{ 'aria-label'?: string; title?: string }>, { 'aria-label': name, title: name });
};

/** The report tables' pager: ten rows a page, none for a single page. */
export const TEN_A_PAGE: PaginationProps = { pageSize: 10, hideOnSinglePage: true, itemRender: pageLinks };
