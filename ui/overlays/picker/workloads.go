package picker

import (
	"errors"
	"strings"

	"rollscope/model/kind"
	"rollscope/ui/screen"
)

// ref reads the `:` or `/` query as kind.Parse does; ok is false when the
// query names no kind, or one rollscope does not know: it is then a filter
// over the deployments.
func (p *Picker) ref() (r kind.Ref, ok bool) {
	r, err := kind.Parse(p.query)
	if r.Kind == "" || err != nil && !errors.Is(err, kind.ErrNoName) {
		return kind.Ref{}, false
	}
	return r, true
}

// chooseWorkload goes to the view of `:sts NAME` or `:ds NAME`; false when
// the query names neither kind.
func (p *Picker) chooseWorkload() bool {
	r, ok := p.ref()
	if p.mode != ':' || !ok || r.Kind == kind.Deployment || r.Kind == kind.ReplicationController {
		return false
	}
	if r.Name == "" {
		p.s.Toast = "give the " + string(r.Kind) + "'s name: :" + strings.TrimRight(strings.TrimSpace(p.query), "/") + " NAME"
		return true
	}
	p.s.Go(screen.Target{Namespace: p.targetNamespace(), Workload: r.Name, WorkloadKind: r.Kind})
	return true
}
