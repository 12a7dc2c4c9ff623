// kiwi (the C++ Cassowary solver of the kiwisolver package) behind a C interface, as the baseline the
// kiosk's ConstraintSolver is measured against: the same system, built, solved and re-solved by both.
// kiwi's headers are fetched by scripts/fetch-kiwi.sh (not committed).
#ifndef KIWI_BASELINE_H
#define KIWI_BASELINE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiwi_baseline kiwi_baseline;

enum { KIWI_BASELINE_LE = 0, KIWI_BASELINE_EQ = 1, KIWI_BASELINE_GE = 2 };

// Builds and solves a system of `variable_count` variables and `constraint_count` constraints: constraint i
// has term_counts[i] terms, read in order from term_variables and term_coefficients, its constant,
// relation and strength (a weight, or a negative one for required). Variable `edit_variable` (or none, if
// negative) is an edit variable of strength `edit_strength`. Null if kiwi refused a constraint.
kiwi_baseline *kiwi_baseline_build(int variable_count, int constraint_count, const int *term_counts,
                                   const int *term_variables, const double *term_coefficients,
                                   const double *constants, const int *relations, const double *strengths,
                                   int edit_variable, double edit_strength);
// Suggests a value for the edit variable and writes the solution into the variables.
void kiwi_baseline_suggest(kiwi_baseline *system, double value);
void kiwi_baseline_update(kiwi_baseline *system);
double kiwi_baseline_value(const kiwi_baseline *system, int variable);
void kiwi_baseline_free(kiwi_baseline *system);

#ifdef __cplusplus
}
#endif

#endif
