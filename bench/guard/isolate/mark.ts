// Imported first by the instrumented Workers of bench/guard/cold-steps.ts: the clock
// when the bundle starts evaluating (workerd's clock has 1 ms steps; the bench
// averages many fresh isolates).
export const T0 = Date.now();
