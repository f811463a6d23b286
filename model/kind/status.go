package kind

import (
	"strconv"
)

// What a workload's status says to the trace and to a run's end: the
// kind's trace line (the counts `kubectl get` shows, and the fields a
// rolling update turns on), and whether its rollout has settled.

// TraceLine is what a workload's trace line says after its kind, namespace
// and name, in the table and the JSON formats alike. It holds scalars only,
// so that comparing two tells whether a line is due.
type TraceLine struct {
	// Counts fill the table's DESIRED, CURRENT, READY, AVAILABLE and
	// UP-TO-DATE columns; the columns from Counted on show "-" (the kind
	// does not count them).
	Counts  [5]int32
	Counted int
	// Note is the table's STATUS: what the rolling update turns on, or "".
	Note string
	// Fields are the JSON line's fields, in order; the first without a
	// name ends them.
	Fields [maxTraceFields]TraceField
}

// TraceField is one field of a workload's JSON trace line: a number, or a
// string when IsText.
type TraceField struct {
	Name   string
	Number int64
	Text   string
	IsText bool
}

// maxTraceFields is the most fields a kind's trace line has.
const maxTraceFields = 10

func countField(name string, v int32) TraceField { return TraceField{Name: name, Number: int64(v)} }
func textField(name, s string) TraceField        { return TraceField{Name: name, Text: s, IsText: true} }

// traceFields are fs as a TraceLine holds them.
func traceFields(fs ...TraceField) (out [maxTraceFields]TraceField) {
	if len(fs) > maxTraceFields {
		panic("kind: a trace line has more than " + strconv.Itoa(maxTraceFields) + " fields")
	}
	copy(out[:], fs)
	return out
}

// Desired is how many pods the workload wants: the DESIRED column.
func (l TraceLine) Desired() int32 { return l.Counts[0] }
