import type { Board } from '../model/rates.js';

/**
 * The board a platform's own words state ("Breakfast included", "… - Dinner and Breakfast",
 * "All inclusive"); null when they name none. Absence of words is never read as room only.
 */
const BOARD_WORDS: readonly [RegExp, Board][] = [
  [/all[\s-]inclusive/i, 'all_inclusive'],
  [/full board/i, 'full_board'],
  [/half board|breakfast (?:&|and) dinner|dinner (?:&|and) breakfast/i, 'half_board'],
  [/breakfast/i, 'breakfast'],
  [/room only|no meals/i, 'room_only'],
];

/** "No breakfast", "breakfast not included": words that name breakfast to deny it. */
const BREAKFAST_DENIED = /\b(?:no|without|excluding|excl\.?)\s+breakfast\b|\bbreakfast\s+(?:is\s+)?not\s+included\b/i;

export function boardOf(text: string | null): Board | null {
  if (text === null) return null;
  // A denied breakfast states no board (other meals may still be included), unless "room only" is said.
  if (BREAKFAST_DENIED.test(text)) return /room only|no meals/i.test(text) ? 'room_only' : null;
  return BOARD_WORDS.find(([re]) => re.test(text))?.[1] ?? null;
}
