import type { ExperienceGrant } from "../game-bridge.js";

/** The total experience points at the start of `level` (Java Edition 1.8+ formula). */
export const pointsAtLevel = (level: number): number => {
  if (level <= 16) return level * level + 6 * level;
  if (level <= 31) return 2.5 * level * level - 40.5 * level + 360;
  return 4.5 * level * level - 162.5 * level + 2220;
};

/** The level a total of experience points reaches. */
export const levelOfPoints = (points: number): number => {
  let level = 0;
  while (pointsAtLevel(level + 1) <= points) level++;
  return level;
};

/**
 * The total after a grant: `points` first, then `levels` whole levels on top, keeping the progress into the
 * current level (as vanilla `/xp add <n> levels` does).
 */
export const grantExperience = (total: number, grant: ExperienceGrant): number => {
  const afterPoints = Math.max(0, Math.floor(total + grant.points));
  if (grant.levels <= 0) return afterPoints;
  const level = levelOfPoints(afterPoints);
  const progress = afterPoints - pointsAtLevel(level);
  return Math.floor(pointsAtLevel(level + grant.levels)) + progress;
};
