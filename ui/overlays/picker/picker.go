// Package picker is the overlay that chooses what the console shows: `:`
// takes a name (`:frontend`, `:deploy frontend`, `:deploy/frontend`, or
// `:rc NAME` for a ReplicationController's rolling update view, `:sts NAME`
// and `:ds NAME` for a StatefulSet's or DaemonSet's view, `:ns NAME`, `:ns
// all`, `:ctx` and `:ctx NAME` for the fleet's scope), `/`
// filters the deployments as you type. Either way the matching deployments
// are listed and ↑/↓ pick one.
package picker

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// Picker is the overlay.
type Picker struct {
	s    *screen.Screen
	w, h int
	mode rune // ':' or '/'
	// namespace is where a name is looked for ("" every namespace).
	namespace string
	query     string
	all       []cluster.DeploymentSummary
	matches   []cluster.DeploymentSummary
	rows      draw.List
	// moved is set once ↑/↓ chose a row after the last typing: enter
	// then opens that row, not the typed name.
	moved bool
}

// New opens the picker in mode ':' or '/' on the deployments of the
// namespace shown, the one shown under the cursor.
func New(s *screen.Screen, mode rune) *Picker { return NewIn(s, mode, s.Namespace) }

// NewIn is a picker of the deployments in namespace ("" for all of them):
// on the fleet, the namespace the fleet shows.
func NewIn(s *screen.Screen, mode rune, namespace string) *Picker {
	var all []cluster.DeploymentSummary
	for _, d := range s.Src.Deployments() {
		if namespace == "" || d.Namespace == namespace {
			all = append(all, d)
		}
	}
	p := &Picker{s: s, mode: mode, all: all, namespace: namespace}
	p.filter()
	for i, d := range p.matches {
		if d.Name == s.Deployment {
			p.rows.Cursor = i
		}
	}
	return p
}

// name is the deployment name in the query, without the resource prefix.
func (p *Picker) name() string {
	if r, ok := p.ref(); ok && r.Kind == kind.Deployment {
		return r.Name
	}
	q := strings.TrimSpace(p.query)
	if k, ok := kind.Lookup(q); ok && k == kind.Deployment {
		return ""
	}
	return q
}

// rcName reads `:rc NAME`, `:rc/NAME` and the long spellings from the
// query.
func (p *Picker) rcName() (string, bool) {
	if r, ok := p.ref(); ok && p.mode == ':' && r.Kind == kind.ReplicationController {
		return r.Name, true
	}
	return "", false
}

func (p *Picker) filter() {
	needle := strings.ToLower(p.name())
	p.matches = p.matches[:0]
	for _, d := range p.all {
		if strings.Contains(strings.ToLower(d.Name), needle) {
			p.matches = append(p.matches, d)
		}
	}
	p.rows.Clamp(len(p.matches))
}

// pick is the deployment enter chooses: the highlighted row once the
// operator has moved to it; before that an exact name wins, else the
// first match.
func (p *Picker) pick() (cluster.DeploymentSummary, bool) {
	name := p.name()
	for _, d := range p.all {
		if d.Name == name && !p.moved {
			return d, true
		}
	}
	if len(p.matches) == 0 {
		return cluster.DeploymentSummary{}, false
	}
	p.rows.Clamp(len(p.matches))
	return p.matches[p.rows.Cursor], true
}

// SetSize sizes the picker to the body.
func (p *Picker) SetSize(w, h int) { p.w, p.h = w, h; p.rows.Height = max(h-2, 1) }

// KeyMap is the picker's keys, for the footer.
func (p *Picker) KeyMap() help.KeyMap { return keys.Hints("enter", "show", "esc", "cancel") }

// Update edits the query; enter asks the console to go to the choice
// (screen.Go) and closes the picker, as esc does.
func (p *Picker) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	switch k.Code {
	case tea.KeyEscape:
		return nil, nil
	case tea.KeyEnter:
		p.choose()
		return nil, nil
	case tea.KeyUp:
		p.rows.Cursor--
		p.moved = true
	case tea.KeyDown:
		p.rows.Cursor++
		p.moved = true
	case tea.KeyPgUp:
		p.rows.Cursor -= p.rows.Height
		p.moved = true
	case tea.KeyPgDown:
		p.rows.Cursor += p.rows.Height
		p.moved = true
	case tea.KeyHome:
		p.rows.Cursor = 0
		p.moved = true
	case tea.KeyEnd:
		p.rows.Cursor = len(p.matches) - 1
		p.moved = true
	case tea.KeyBackspace:
		if r := []rune(p.query); len(r) > 0 {
			p.query = string(r[:len(r)-1])
			p.filter()
			p.moved = false
		}
	default:
		if k.Text != "" {
			p.query += k.Text
			p.filter()
			p.moved = false
		}
	}
	p.rows.Clamp(len(p.matches))
	return p, nil
}

// targetNamespace is where a named workload is opened: the picker's
// namespace, or with every namespace shown the console's own.
func (p *Picker) targetNamespace() string {
	if p.namespace != "" {
		return p.namespace
	}
	return p.s.Namespace
}

// choose asks the console to show what enter chose, or says why nothing
// matches.
func (p *Picker) choose() {
	s := p.s
	if p.chooseScope() {
		return
	}
	if p.chooseWorkload() {
		return
	}
	if name, ok := p.rcName(); ok {
		if name == "" {
			s.Toast = "give the ReplicationController's name: :rc NAME"
			return
		}
		s.Go(screen.Target{Namespace: p.targetNamespace(), RC: name})
		return
	}
	d, ok := p.pick()
	if !ok {
		s.Toast = fmt.Sprintf("no deployment matches %q in namespace %s — esc, then : to try again",
			p.name(), draw.OrDash(p.namespace))
		return
	}
	s.Go(screen.Target{Namespace: d.Namespace, Deployment: d.Name})
}

// View lists the matches under the query; while `:rc NAME` is typed it
// says what enter will open instead, rather than that no deployment
// matches.
func (p *Picker) View() string {
	w, h := p.w, p.h
	if h <= 0 {
		return ""
	}
	// The list scrolls with its cursor (↑/↓, PgUp/PgDn, Home/End); the
	// keys stay under it.
	var pinned screen.Frame
	lines := p.lines()
	if h > 1 {
		lines = append(lines[:min(len(lines), h-1)], pinned.ActionLine(p.s, p.KeyMap(), w))
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// lines are the query and what it matches.
func (p *Picker) lines() []string {
	w, h := p.w, p.h
	st := p.s.Styles
	if sc, word, ok := p.scopeQuery(); ok {
		return []string{draw.Fit(st.Accent.Render(":"+p.query+"█")+"  "+st.Muted.Render(p.scopeHint(sc, word)), w)}
	}
	if name, ok := p.rcName(); ok {
		hint := "enter opens the rolling update view of replicationcontroller " + name + " in " + draw.OrDash(p.targetNamespace())
		if name == "" {
			hint = "type the ReplicationController's name"
		}
		return []string{draw.Fit(st.Accent.Render(":"+p.query+"█")+"  "+st.Muted.Render(hint), w)}
	}
	out := make([]string, 0, h)
	prompt := string(p.mode) + p.query + "█"
	out = append(out, draw.Fit(st.Accent.Render(prompt)+"  "+st.Muted.Render(
		fmt.Sprintf("%d of %d deployments in %s", len(p.matches), len(p.all), draw.OrDash(p.namespace))), w))
	start, end := p.rows.Window(len(p.matches))
	for i := start; i < end; i++ {
		d := p.matches[i]
		state := "progressing"
		switch {
		case d.Paused:
			state = "paused"
		case d.Done:
			state = "complete"
		}
		name := d.Name
		if p.namespace == "" {
			name = d.Namespace + "/" + d.Name
		}
		line := draw.Fit(fmt.Sprintf(" %-30s %3d/%-3d available  %3d updated  %s",
			name, d.Available, d.Replicas, d.Updated, state), w)
		if i == p.rows.Cursor {
			line = st.Selected.Render(draw.Mark(line, true))
		}
		out = append(out, line)
	}
	if len(p.matches) == 0 {
		out = append(out, draw.Fit(st.Muted.Render(" no deployment matches"), w))
	}
	return out
}
