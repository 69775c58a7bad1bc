// Package bench measures what barriers cost on ebref's simulated GPU:
// frame structures (Workloads), each written once as the application's
// intent and run with the barriers of each Strategy — legacy
// ResourceBarrier through the runtime's legacy layer, enhanced Barrier
// calls as an expert writes them, and the oracle's minimum — on every
// hardware profile. The figures are the model's cycle counts: modelled,
// not calibrated against any GPU. docs/bench.md describes the workloads,
// the strategies and the reports.
//
// This package imports bench/internal/chart, bench/internal/oracle, cmdbuf,
// ddi, ddi/legacy, hlk, hlk/reference, hlk/scenario, hwmodel, resource and
// umd/translator, and nothing else of ebref: it builds frames in the
// scenario language and runs them on ebref's own driver through hlk.
package bench
