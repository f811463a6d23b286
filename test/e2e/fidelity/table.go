package fidelity

import (
	"fmt"
	"strings"
)

// row is one trace line as the side-by-side table shows it. key is the same
// text with what legitimately differs between runs taken out (ReplicaSet
// names, namespaces, times), so that equal steps line up.
type row struct {
	t    float64
	n    int
	key  string
	text string
}

// rows keeps the lines about the scenario's Deployment: its own lines, its
// ReplicaSets', the Deployment's events (the controller's scaling
// decisions), the actions and the end. Pod and node churn is left out: it
// is where timing differs and it says nothing about the rollout's steps.
func (s *Scenario) rows(tr *Trace) []row {
	r := newReplay(s.Deployment.Name)
	var out []row
	for _, l := range tr.Lines {
		mine := r.apply(l)
		var key, text string
		switch {
		case l.Type == typeDeployment && mine:
			key = fmt.Sprintf("deploy spec %d cur %d upd %d ready %d avail %d unavail %d %s avail=%s", l.Spec, l.Replicas, l.Updated, l.Ready, l.Available, l.Unavailable, orDash(l.Progressing), orDash(l.AvailableCondition))
			if l.Paused {
				key += " paused"
			}
			text = key
		case l.Type == typeReplicaSet && mine && l.Deleted:
			key = r.label[l.Name] + " deleted"
			text = r.label[l.Name] + "(" + hashOf(s.Deployment.Name, l.Name) + ") deleted"
		case l.Type == typeReplicaSet && mine:
			counts := fmt.Sprintf("rev %d spec %d cur %d ready %d avail %d", l.Revision, l.Spec, l.Replicas, l.Ready, l.Available)
			key = r.label[l.Name] + " " + counts
			text = r.label[l.Name] + "(" + hashOf(s.Deployment.Name, l.Name) + ") " + counts
		case l.Type == typeEvent && l.Object == "deployment/"+s.Deployment.Name:
			key = "event " + l.Reason + ": " + r.relabel(l.Message)
			text = key
		case l.Type == typeAction:
			key = "action " + l.Action + " " + l.Target + ": " + l.Result
			text = key
		case l.Type == typeEnd:
			key = "end " + l.Reason
			text = key
		default:
			continue
		}
		out = append(out, row{t: l.T, n: l.N, key: key, text: text})
	}
	return out
}

// SideBySide prints both runs' traces in two columns, lines that agree
// (times apart) on the same row, marked in the first column: "  " agree,
// "≠" differ, "<" only on the left, ">" only on the right.
func (s *Scenario) SideBySide(a, b *Run) string {
	ra, rb := s.rows(a.Trace), s.rows(b.Trace)
	width := len(a.Source())
	for _, x := range ra {
		width = max(width, len(x.text))
	}
	width = min(width, 100)
	var sb strings.Builder
	fmt.Fprintf(&sb, "  %8s  %-*s │ %8s  %s\n", "t", width, a.Source(), "t", b.Source())
	cell := func(x *row) (string, string) {
		if x == nil {
			return "", ""
		}
		return fmt.Sprintf("%8.3f", x.t), x.text
	}
	line := func(mark string, x, y *row) {
		ta, sa := cell(x)
		tb, sbText := cell(y)
		if len(sa) > width {
			sa = sa[:width-1] + "…"
		}
		fmt.Fprintf(&sb, "%s %8s  %-*s │ %8s  %s\n", mark, ta, width, sa, tb, sbText)
	}
	for _, h := range align(ra, rb) {
		if h.same {
			line(" ", &ra[h.a], &rb[h.b])
			continue
		}
		n := max(len(h.onlyA), len(h.onlyB))
		for i := 0; i < n; i++ {
			var x, y *row
			mark := "≠"
			if i < len(h.onlyA) {
				x = &ra[h.onlyA[i]]
			} else {
				mark = ">"
			}
			if i < len(h.onlyB) {
				y = &rb[h.onlyB[i]]
			} else {
				mark = "<"
			}
			line(mark, x, y)
		}
	}
	return sb.String()
}

// hunk is either one pair of agreeing rows or a run of rows that differ.
type hunk struct {
	same         bool
	a, b         int
	onlyA, onlyB []int
}

// align pairs the rows of two traces by their longest common subsequence
// of keys, as diff does.
func align(a, b []row) []hunk {
	n, m := len(a), len(b)
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i].key == b[j].key {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []hunk
	var cur hunk
	flush := func() {
		if len(cur.onlyA)+len(cur.onlyB) > 0 {
			out = append(out, cur)
		}
		cur = hunk{}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i].key == b[j].key:
			flush()
			out = append(out, hunk{same: true, a: i, b: j})
			i++
			j++
		case j == m || i < n && lcs[i+1][j] >= lcs[i][j+1]:
			cur.onlyA = append(cur.onlyA, i)
			i++
		default:
			cur.onlyB = append(cur.onlyB, j)
			j++
		}
	}
	flush()
	return out
}

// orDash shows a condition that is not set yet.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
