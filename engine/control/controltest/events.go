package controltest

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// Events is a control.Recorder that keeps every event the controller
// records.
type Events struct {
	// Lines are the events as "Type Reason Message", in order; a test may
	// clear them between steps.
	Lines []string
}

// Eventf implements control.Recorder.
func (e *Events) Eventf(_ runtime.Object, eventType, reason, format string, args ...any) {
	e.Lines = append(e.Lines, eventType+" "+reason+" "+fmt.Sprintf(format, args...))
}
