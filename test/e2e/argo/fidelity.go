package argo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// A canary run read from `rollscope simulate`'s trace in the words both
// controllers share: ReplicaSets are named by the order they appear in
// (rs1, rs2, …) since a live run's pod template, pinned to its hollow
// nodes, hashes differently; times are dropped (the embedded clock is
// virtual, the live one is the wall's), so only order and states count.
type canaryRun struct {
	Source string
	// Scales are the ReplicaSets' spec.replicas changes, in order.
	Scales []string
	// Rollout are the Rollout's phase, message, step and hashes, each
	// change once.
	Rollout []string
	// Events are the Rollout's events, reason and message.
	Events []string
	// Actions are the scenario's actions and their results.
	Actions []string
	// Final is the Rollout's last line and each ReplicaSet's last state.
	Final []string
	raw   []byte
}

type traceLine struct {
	Type           string `json:"type"`
	Namespace      string `json:"namespace"`
	Name           string `json:"name"`
	Owner          string `json:"owner"`
	Object         string `json:"object"`
	Reason         string `json:"reason"`
	Message        string `json:"message"`
	Action         string `json:"action"`
	Target         string `json:"target"`
	Result         string `json:"result"`
	Revision       int64  `json:"revision"`
	Spec           int32  `json:"spec"`
	Replicas       int32  `json:"replicas"`
	Ready          int32  `json:"ready"`
	Available      int32  `json:"available"`
	Updated        int32  `json:"updated"`
	Step           int32  `json:"step"`
	StableRS       string `json:"stableRS"`
	CurrentPodHash string `json:"currentPodHash"`
	Phase          string `json:"phase"`
	Deleted        bool   `json:"deleted"`
}

// countsMessage are the Progressing messages that say which pod counts
// are not there yet (Argo's CalculateRolloutPhase).
var countsMessage = map[string]bool{
	"more replicas need to be updated":              true,
	"updated replicas are still becoming available": true,
	"old replicas are pending termination":          true,
}

// readCanaryRun reads the trace of a scenario whose one Rollout is named
// rollout.
func readCanaryRun(source, rollout string, data []byte) (*canaryRun, error) {
	run := &canaryRun{Source: source, raw: data}
	names := map[string]string{} // ReplicaSet hash → rsN
	hashOf := func(rs string) string { return strings.TrimPrefix(rs, rollout+"-") }
	name := func(hash string) string {
		if hash == "" {
			return "-"
		}
		if n, ok := names[hash]; ok {
			return n
		}
		return "?" + hash
	}
	spec := map[string]int32{}
	lastRS := map[string]traceLine{}
	var lastRollout *traceLine
	namespace := "" // the run's: a live run makes its own
	for i, raw := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(raw)) == 0 || bytes.Contains(raw, []byte(`"type":"node"`)) {
			continue // a node line, whose counts are not a workload's
		}
		var l traceLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, fmt.Errorf("%s trace, line %d: %w: %.120s", source, i+1, err, raw)
		}
		switch {
		case l.Type == "replicaset" && l.Owner == "rollout/"+rollout && !l.Deleted:
			h := hashOf(l.Name)
			if _, ok := names[h]; !ok {
				names[h] = fmt.Sprintf("rs%d", len(names)+1)
			}
			if s, ok := spec[h]; !ok || s != l.Spec {
				run.Scales = append(run.Scales, fmt.Sprintf("%s → %d", names[h], l.Spec))
				spec[h] = l.Spec
			}
			lastRS[h] = l
		case l.Type == "rollout" && l.Name == rollout && !l.Deleted:
			msg := l.Message
			if l.Phase == "Progressing" && countsMessage[msg] {
				// The plugin's reading of the pod counts, whose order
				// follows when each pod becomes ready: the scale steps
				// and the final objects compare the counts themselves.
				msg = "…"
			}
			s := fmt.Sprintf("%s %q step %d stable %s current %s", l.Phase, msg, l.Step, name(l.StableRS), name(l.CurrentPodHash))
			if n := len(run.Rollout); n == 0 || run.Rollout[n-1] != s {
				run.Rollout = append(run.Rollout, s)
			}
			lastRollout, namespace = &l, l.Namespace
		case l.Type == "event" && l.Object == "rollout/"+rollout:
			run.Events = append(run.Events, l.Reason+": "+l.Message)
		case l.Type == "action":
			run.Actions = append(run.Actions, fmt.Sprintf("%s %s: %s", l.Action, l.Target, l.Result))
		}
	}
	// Hashes in messages read as the ReplicaSets' order names.
	hashes := make([]string, 0, len(names))
	for h := range names {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	for _, list := range [][]string{run.Events, run.Rollout} {
		for i, s := range list {
			if namespace != "" {
				s = strings.ReplaceAll(s, namespace+"/", "NAMESPACE/")
			}
			for _, h := range hashes {
				s = strings.ReplaceAll(s, rollout+"-"+h, names[h])
				s = strings.ReplaceAll(s, h, names[h])
			}
			list[i] = s
		}
	}
	if lastRollout == nil {
		return nil, fmt.Errorf("%s trace: no line of rollout/%s", source, rollout)
	}
	l := lastRollout
	final := []string{fmt.Sprintf("rollout %s spec %d replicas %d updated %d available %d", run.Rollout[len(run.Rollout)-1], l.Spec, l.Replicas, l.Updated, l.Available)}
	for h, rs := range lastRS {
		final = append(final, fmt.Sprintf("%s revision %d spec %d available %d", names[h], rs.Revision, rs.Spec, rs.Available))
	}
	sort.Strings(final[1:])
	run.Final = final
	return run, nil
}

// hashPattern finds pod-template hashes left in a line.
var hashPattern = regexp.MustCompile(`\?[0-9a-z]{8,10}`)

// compareCanaryRuns lists where b differs from a, by view.
func compareCanaryRuns(a, b *canaryRun) []string {
	var diffs []string
	for _, v := range []struct {
		what string
		a, b []string
	}{
		{"ReplicaSet scale steps", a.Scales, b.Scales},
		{"Rollout phase/step/message transitions", a.Rollout, b.Rollout},
		{"Rollout events", a.Events, b.Events},
		{"actions", a.Actions, b.Actions},
		{"final objects", a.Final, b.Final},
	} {
		if strings.Join(v.a, "\n") != strings.Join(v.b, "\n") {
			diffs = append(diffs, v.what+" differ:\n"+sideBySide(a.Source, b.Source, v.a, v.b))
		}
	}
	for _, r := range []*canaryRun{a, b} {
		for _, s := range r.Events {
			if hashPattern.MatchString(s) {
				diffs = append(diffs, fmt.Sprintf("%s: an event names a ReplicaSet the trace never showed: %s", r.Source, s))
			}
		}
	}
	return diffs
}

// sideBySide prints two lists in two columns, marking the rows that differ.
func sideBySide(na, nb string, a, b []string) string {
	width := len([]rune(na))
	for _, s := range a {
		width = max(width, len([]rune(s)))
	}
	var sb strings.Builder
	row := func(mark, l, r string) {
		pad := strings.Repeat(" ", width-len([]rune(l)))
		fmt.Fprintf(&sb, "%s %s%s | %s\n", mark, l, pad, r)
	}
	row(" ", na, nb)
	for i := 0; i < max(len(a), len(b)); i++ {
		var l, r string
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		mark := " "
		if l != r {
			mark = "≠"
		}
		row(mark, l, r)
	}
	return sb.String()
}
