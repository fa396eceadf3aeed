import type { ModelListing } from '../models/models.api';
import { DRAWN_DATA_ID } from './drawn-document';

/** What a drawn /user/home carries for the app that takes it over: the grid's first answer, and whose. */
export interface DrawnHomeData {
  tenant: string;
  userId: number;
  listing: ModelListing;
}

/** The drawn home page's data, or null when the page has none or it is not what it should be. */
export function readDrawnHomeData(doc: Document = document): DrawnHomeData | null {
  const text = doc.getElementById(DRAWN_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<DrawnHomeData>;
    const listing = data.listing;
    if (typeof data.tenant !== 'string' || typeof data.userId !== 'number') return null;
    if (!listing || !Array.isArray(listing.models) || !Array.isArray(listing.users)) return null;
    return { tenant: data.tenant, userId: data.userId, listing };
  } catch {
    return null;
  }
}
