/**
 * The relayout planner (not exported): from two shapes to a strategy and loop nests
 * ({@link dev.tegula.vector.plan.DigitPlanner}, {@link dev.tegula.vector.plan.LoopNest}), one
 * {@link dev.tegula.vector.plan.Walk} per nest naming its kernel, made only by
 * {@link dev.tegula.vector.plan.WalkRules}; the estimate ({@link dev.tegula.vector.plan.Estimate}),
 * the candidate families ({@link dev.tegula.vector.plan.CandidateFamilies}), the measuring search
 * ({@link dev.tegula.vector.plan.MeasuredSearch}) and its clock
 * ({@link dev.tegula.vector.plan.CandidateTimer}); running walks
 * ({@link dev.tegula.vector.plan.WalkRunner}) and sharing work between threads
 * ({@link dev.tegula.vector.plan.Tasks}). {@link dev.tegula.vector.plan.Planner} is the entry point.
 */
package dev.tegula.vector.plan;
