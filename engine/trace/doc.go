// Package trace writes what `rollscope simulate` prints: one line per change
// of a workload of any kind the registry (model/kind) knows, a ReplicaSet or a
// node, per Kubernetes event about them, per scenario action, and one at the
// end of the run.
//
// The trace is the contract between a scenario and its outcome: the same
// scenario and seed must give byte-identical output, so lines are encoded by
// hand from fixed projections of the objects, never from maps. A line is
// written only when one of its own fields changes, which keeps the trace short
// enough to read and to diff between runs.
package trace
