package fidelity

import (
	"fmt"
	"strconv"
	"strings"
)

// Run is one play of a scenario: its trace and the API's objects at its end.
type Run struct {
	Trace *Trace
	Final Final
}

// Source is where the run was played: "embedded" or "live".
func (r *Run) Source() string { return r.Trace.Source }

// Compare lists every way two runs of a scenario disagree, or break the
// rollout invariants on their own; none means the runs agree. Times are
// never compared: embedded time is virtual.
func Compare(s *Scenario, a, b *Run) []string {
	var diffs []string
	if ea, eb := a.Trace.End(), b.Trace.End(); ea != eb {
		diffs = append(diffs, fmt.Sprintf("end of run: %s %q, %s %q", a.Source(), ea, b.Source(), eb))
	}
	for _, r := range []*Run{a, b} {
		diffs = append(diffs, s.Violations(r.Trace)...)
	}
	fa, fb := s.finalRows(a), s.finalRows(b)
	diffs = append(diffs, fa.problems...)
	diffs = append(diffs, fb.problems...)
	diffs = append(diffs, compareFields("Deployment "+s.Deployment.Name+" at the end", a.Source(), b.Source(), fa.deployment, fb.deployment)...)
	diffs = append(diffs, compareReplicaSets(a.Source(), b.Source(), fa, fb)...)
	if s.OneStepAtATime() {
		sa, sb := s.Steps(a.Trace), s.Steps(b.Trace)
		if strings.Join(sa, " ") != strings.Join(sb, " ") {
			diffs = append(diffs, fmt.Sprintf("ReplicaSet sizes, one step at a time, in order (rsN = the Nth ReplicaSet created):\n  %-8s %s\n  %-8s %s",
				a.Source(), strings.Join(sa, " "), b.Source(), strings.Join(sb, " ")))
		}
	}
	return diffs
}

// Steps is the sequence of ReplicaSet size changes in a trace, as
// "rs2=1": each ReplicaSet's spec.replicas whenever it changes.
func (s *Scenario) Steps(tr *Trace) []string {
	r := newReplay(s.Deployment.Name)
	last := map[string]int32{}
	var out []string
	for _, l := range tr.Lines {
		if l.Type != typeReplicaSet || l.Deleted || !r.apply(l) {
			continue
		}
		if prev, ok := last[l.Name]; ok && prev == l.Spec {
			continue
		}
		last[l.Name] = l.Spec
		out = append(out, fmt.Sprintf("%s=%d", r.label[l.Name], l.Spec))
	}
	return out
}

// field is one named value of a final object.
type field struct{ name, value string }

// finalRows is a run's end state: the Deployment's last trace line and
// conditions, and each ReplicaSet's last trace line joined with its object,
// keyed by images and revision (names could differ between runs only if
// the pod-template hashes did, and that is reported as a difference).
type finalRows struct {
	deployment []field
	rs         map[string][]field
	keys       []string
	// problems are disagreements between a run's trace and its own objects.
	problems []string
}

func (s *Scenario) finalRows(run *Run) finalRows {
	r := newReplay(s.Deployment.Name)
	for _, l := range run.Trace.Lines {
		r.apply(l)
	}
	out := finalRows{rs: map[string][]field{}}
	d := r.dep
	out.deployment = []field{
		{"spec.replicas", itoa(d.Spec)}, {"replicas", itoa(d.Replicas)}, {"updated", itoa(d.Updated)},
		{"ready", itoa(d.Ready)}, {"available", itoa(d.Available)}, {"unavailable", itoa(d.Unavailable)},
		{"paused", strconv.FormatBool(d.Paused)},
	}
	for _, c := range run.Final.Conditions {
		// Status and reason, not the message: upstream's own message is a
		// race under Recreate. When the status write that follows creating
		// the new ReplicaSet meets a conflict, the controller retries with
		// the ReplicaSet already there, never records "Created new replica
		// set", and — its complete-rollout check seeing as many replicas as
		// updated ones — keeps the old ReplicaSet's NewReplicaSetAvailable
		// message to the end. Which of the two a real control plane ends
		// with depends on informer timing; the reason is the same either way.
		out.deployment = append(out.deployment, field{c.Type, c.Status + " " + c.Reason})
	}
	problem := func(format string, args ...any) {
		out.problems = append(out.problems, run.Source()+": "+fmt.Sprintf(format, args...))
	}
	lines := map[string]Line{}
	for _, l := range r.replicaSets() {
		lines[l.Name] = l
	}
	for _, f := range run.Final.ReplicaSets {
		l, ok := lines[f.Name]
		if !ok {
			problem("ReplicaSet %s is in the API at the end but not in the trace", f.Name)
			continue
		}
		delete(lines, f.Name)
		if strconv.FormatInt(l.Revision, 10) != f.Revision || l.Spec != f.Spec {
			problem("ReplicaSet %s: the trace ends at revision %d spec %d, the API says revision %s spec %d", f.Name, l.Revision, l.Spec, f.Revision, f.Spec)
		}
		if h := templateHash(f.Template, run.Final.CollisionCount); h != f.Hash {
			problem("ReplicaSet %s carries pod-template-hash %s, but rollscope hashes its template to %s", f.Name, f.Hash, h)
		}
		key := f.Images + " revision " + f.Revision
		if _, dup := out.rs[key]; dup {
			problem("two ReplicaSets run %s", key)
		}
		out.keys = append(out.keys, key)
		out.rs[key] = []field{
			{"template hash without the live run's node pinning", templateHash(unpinned(f.Template, &s.Deployment.Spec.Template), run.Final.CollisionCount)},
			{"creation order", r.label[f.Name]},
			{"spec.replicas", itoa(l.Spec)}, {"replicas", itoa(l.Replicas)}, {"ready", itoa(l.Ready)}, {"available", itoa(l.Available)},
			{"revision-history", f.History},
		}
	}
	for name := range lines {
		problem("ReplicaSet %s ends the trace but is not in the API", name)
	}
	return out
}

func compareReplicaSets(sa, sb string, a, b finalRows) []string {
	var diffs []string
	for _, k := range a.keys {
		if fb, ok := b.rs[k]; ok {
			diffs = append(diffs, compareFields("ReplicaSet of "+k, sa, sb, a.rs[k], fb)...)
		} else {
			diffs = append(diffs, fmt.Sprintf("ReplicaSet of %s: only %s has one", k, sa))
		}
	}
	for _, k := range b.keys {
		if _, ok := a.rs[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("ReplicaSet of %s: only %s has one", k, sb))
		}
	}
	return diffs
}

// compareFields reports each field whose values differ, and fields only one
// side has.
func compareFields(what, sa, sb string, a, b []field) []string {
	bv := map[string]string{}
	for _, f := range b {
		bv[f.name] = f.value
	}
	var diffs []string
	for _, f := range a {
		v, ok := bv[f.name]
		if !ok {
			v = "(none)"
		}
		delete(bv, f.name)
		if v != f.value {
			diffs = append(diffs, fmt.Sprintf("%s: %s is %q %s, %q %s", what, f.name, f.value, sa, v, sb))
		}
	}
	for _, f := range b {
		if _, ok := bv[f.name]; ok {
			diffs = append(diffs, fmt.Sprintf("%s: %s is (none) %s, %q %s", what, f.name, sa, f.value, sb))
		}
	}
	return diffs
}

func itoa(n int32) string { return strconv.FormatInt(int64(n), 10) }

// Report is what a failed comparison prints: every difference, then both
// traces side by side so the step where they part is visible in CI output.
func (s *Scenario) Report(a, b *Run, diffs []string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s and %s runs disagree (%d):\n", s.File, a.Source(), b.Source(), len(diffs))
	for _, d := range diffs {
		sb.WriteString("  - " + d + "\n")
	}
	sb.WriteString("\n" + s.SideBySide(a, b))
	return sb.String()
}
