package fidelity

import (
	"fmt"
	"sort"
	"strings"
)

// replay walks a trace keeping the latest line of the Deployment and of each
// of its ReplicaSets, and names the ReplicaSets by the order they appeared
// in: "rs1" is the first the Deployment made. The order is the same in every
// faithful run, while names could differ if the pod-template hashes did.
type replay struct {
	deployment string
	dep        Line
	seenDep    bool
	rs         map[string]Line // by name, deleted ones removed
	label      map[string]string
	order      []string // names in order of appearance
}

func newReplay(deployment string) *replay {
	return &replay{deployment: deployment, rs: map[string]Line{}, label: map[string]string{}}
}

// apply takes one line in; it reports whether the line was about the
// Deployment or one of its ReplicaSets.
func (r *replay) apply(l Line) bool {
	switch {
	case l.Type == typeDeployment && l.Name == r.deployment:
		if !l.Deleted {
			r.dep, r.seenDep = l, true
		}
		return true
	case l.Type == typeReplicaSet && (l.Owner == "deployment/"+r.deployment || r.known(l.Name)):
		if _, ok := r.label[l.Name]; !ok {
			r.order = append(r.order, l.Name)
			r.label[l.Name] = fmt.Sprintf("rs%d", len(r.order))
		}
		if l.Deleted {
			delete(r.rs, l.Name)
		} else {
			r.rs[l.Name] = l
		}
		return true
	}
	return false
}

func (r *replay) known(name string) bool { _, ok := r.label[name]; return ok }

// sums adds up the ReplicaSets' spec.replicas and available pods.
func (r *replay) sums() (spec, available int32) {
	for _, l := range r.rs {
		spec += l.Spec
		available += l.Available
	}
	return spec, available
}

// replicaSets lists the live ReplicaSets' latest lines in order of appearance.
func (r *replay) replicaSets() []Line {
	out := make([]Line, 0, len(r.rs))
	for _, name := range r.order {
		if l, ok := r.rs[name]; ok {
			out = append(out, l)
		}
	}
	return out
}

// relabel replaces ReplicaSet names in s (an event message) by their labels,
// so that messages compare across runs.
func (r *replay) relabel(s string) string {
	names := append([]string(nil), r.order...)
	// Longest first: one name may be a prefix of another.
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, n := range names {
		s = strings.ReplaceAll(s, n, r.label[n])
	}
	return s
}

// hashOf is the pod-template hash a ReplicaSet's name ends with.
func hashOf(deployment, rsName string) string {
	return strings.TrimPrefix(rsName, deployment+"-")
}
