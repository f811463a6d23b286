package play

import (
	"errors"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"rollscope/engine/control"
	"rollscope/model/kind"
)

// RolloutsFinished is `kubectl rollout status` (`kubectl argo rollouts
// status` for a Rollout) over every workload of a run
// once it has ended: nil when each has rolled out, else an error with
// kubectl's words for each that has not — its error for a rollout that
// failed (a progress deadline exceeded), its waiting sentence for one still
// under way or paused when the run stopped (kubectl would have timed out
// waiting). `simulate --exit-status` exits 1 with it, as kubectl does.
func RolloutsFinished(l control.Listers) error {
	var workloads []kind.Workload
	if l.Deployments != nil {
		ds, _ := l.Deployments.List(labels.Everything())
		for _, d := range ds {
			if w, ok := kind.Of(d); ok {
				workloads = append(workloads, w)
			}
		}
	}
	for _, e := range kind.All() {
		if e.Kind != kind.Deployment {
			workloads = append(workloads, listWorkloads(l, e.Kind)...)
		}
	}
	var failed, waiting []string
	for _, w := range workloads {
		msg, done, err := w.RolloutStatus()
		// A custom kind's status command names one object and its lines
		// do not: they are prefixed with it (rollout/checkout: …).
		named := ""
		if e, _ := w.Kind().Entry(); e.Custom != "" {
			named = kind.Ref{Kind: w.Kind(), Name: w.GetName()}.String() + ": "
		}
		switch {
		case err != nil:
			failed = append(failed, named+err.Error())
		case !done:
			waiting = append(waiting, named+strings.TrimSuffix(msg, "\n"))
		}
	}
	if len(failed)+len(waiting) == 0 {
		return nil
	}
	slices.Sort(failed)
	slices.Sort(waiting)
	return &NotRolledOut{Failed: failed, Waiting: waiting}
}

// NotRolledOut is a run that ended with rollouts not finished.
type NotRolledOut struct {
	// Failed are kubectl's errors ("deployment "web" exceeded its
	// progress deadline"); Waiting its sentences for the rollouts still
	// under way when the run stopped.
	Failed, Waiting []string
}

func (e *NotRolledOut) Error() string {
	parts := e.Failed
	if len(e.Waiting) > 0 {
		parts = append(slices.Clip(parts), "not finished when the run stopped: "+strings.Join(e.Waiting, "; "))
	}
	return strings.Join(parts, "; ")
}

// IsNotRolledOut reports whether err is a run's rollouts not finished.
func IsNotRolledOut(err error) bool {
	var n *NotRolledOut
	return errors.As(err, &n)
}
