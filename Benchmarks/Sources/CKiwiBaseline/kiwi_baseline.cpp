#include "kiwi_baseline.h"

#if __has_include(<kiwi/kiwi.h>)
#include <kiwi/kiwi.h>
#else
#error "kiwi's headers are missing: run Benchmarks/scripts/fetch-kiwi.sh"
#endif

#include <vector>

struct kiwi_baseline {
    kiwi::Solver solver;
    std::vector<kiwi::Variable> variables;
    int edit = -1;
};

extern "C" kiwi_baseline *kiwi_baseline_build(int variable_count, int constraint_count, const int *term_counts,
                                              const int *term_variables, const double *term_coefficients,
                                              const double *constants, const int *relations,
                                              const double *strengths, int edit_variable, double edit_strength) {
    auto *system = new kiwi_baseline;
    system->variables.reserve(variable_count);
    for (int i = 0; i < variable_count; i++) system->variables.emplace_back();
    try {
        if (edit_variable >= 0) {
            system->edit = edit_variable;
            system->solver.addEditVariable(system->variables[edit_variable], edit_strength);
        }
        int term = 0;
        for (int i = 0; i < constraint_count; i++) {
            std::vector<kiwi::Term> terms;
            terms.reserve(term_counts[i]);
            for (int t = 0; t < term_counts[i]; t++, term++)
                terms.emplace_back(system->variables[term_variables[term]], term_coefficients[term]);
            kiwi::Expression expression(std::move(terms), constants[i]);
            kiwi::RelationalOperator op = relations[i] == KIWI_BASELINE_LE   ? kiwi::OP_LE
                                          : relations[i] == KIWI_BASELINE_EQ ? kiwi::OP_EQ
                                                                             : kiwi::OP_GE;
            double strength = strengths[i] < 0 ? kiwi::strength::required : strengths[i];
            system->solver.addConstraint(kiwi::Constraint(expression, op, strength));
        }
    } catch (...) {
        delete system;
        return nullptr;
    }
    return system;
}

extern "C" void kiwi_baseline_suggest(kiwi_baseline *system, double value) {
    system->solver.suggestValue(system->variables[system->edit], value);
}

extern "C" void kiwi_baseline_update(kiwi_baseline *system) { system->solver.updateVariables(); }

extern "C" double kiwi_baseline_value(const kiwi_baseline *system, int variable) {
    return system->variables[variable].value();
}

extern "C" void kiwi_baseline_free(kiwi_baseline *system) { delete system; }
