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

export function boardOf(text: string | null): Board | null {
  if (text === null) return null;
  return BOARD_WORDS.find(([re]) => re.test(text))?.[1] ?? null;
}
