package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/ui/draw"
)

// picker chooses the deployment to show: `:` takes a name (`:frontend`,
// `:deploy frontend`, `:deploy/frontend`), `/` filters the list as you type.
// Either way the matching deployments are listed and ↑/↓ pick one.
type picker struct {
	mode    rune // ':' or '/'
	query   string
	all     []model.DeploymentSummary
	matches []model.DeploymentSummary
	rows    draw.List
}

func (m *Model) openPicker(mode rune) {
	var all []model.DeploymentSummary
	for _, d := range m.s.src.Deployments() {
		if m.s.namespace == "" || d.Namespace == m.s.namespace {
			all = append(all, d)
		}
	}
	p := &picker{mode: mode, all: all}
	p.filter()
	for i, d := range p.matches {
		if d.Name == m.s.deployment {
			p.rows.Cursor = i
		}
	}
	m.picker = p
}

// name is the deployment name in the query, without the resource prefix.
func (p *picker) name() string {
	q := strings.TrimSpace(p.query)
	for _, prefix := range []string{"deploy/", "deploy ", "deployment/", "deployment "} {
		if strings.HasPrefix(q, prefix) {
			return strings.TrimSpace(q[len(prefix):])
		}
	}
	if q == "deploy" || q == "deployment" {
		return ""
	}
	return q
}

func (p *picker) filter() {
	needle := strings.ToLower(p.name())
	p.matches = p.matches[:0]
	for _, d := range p.all {
		if strings.Contains(strings.ToLower(d.Name), needle) {
			p.matches = append(p.matches, d)
		}
	}
	p.rows.Clamp(len(p.matches))
}

// pick is the deployment enter chooses: an exact name wins, else the
// highlighted match.
func (p *picker) pick() (model.DeploymentSummary, bool) {
	name := p.name()
	for _, d := range p.all {
		if d.Name == name {
			return d, true
		}
	}
	if len(p.matches) == 0 {
		return model.DeploymentSummary{}, false
	}
	p.rows.Clamp(len(p.matches))
	return p.matches[p.rows.Cursor], true
}

func (m Model) pickerKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p := m.picker
	switch msg.Code {
	case tea.KeyEscape:
		m.picker = nil
		return m, nil
	case tea.KeyEnter:
		d, ok := p.pick()
		m.picker = nil
		if !ok {
			m.toast = fmt.Sprintf("no deployment matches %q in namespace %s — esc, then : to try again",
				p.name(), draw.OrDash(m.s.namespace))
			return m, nil
		}
		m.selectDeployment(d.Namespace, d.Name)
		return m, nil
	case tea.KeyUp:
		p.rows.Cursor--
	case tea.KeyDown:
		p.rows.Cursor++
	case tea.KeyBackspace:
		if r := []rune(p.query); len(r) > 0 {
			p.query = string(r[:len(r)-1])
			p.filter()
		}
	default:
		if msg.Text != "" {
			p.query += msg.Text
			p.filter()
		}
	}
	p.rows.Clamp(len(p.matches))
	return m, nil
}

func (p *picker) view(s *screen, w, h int) []string {
	if h <= 0 {
		return nil
	}
	st := s.styles
	out := make([]string, 0, h)
	prompt := string(p.mode) + p.query + "█"
	out = append(out, draw.Fit(st.Accent.Render(prompt)+"  "+st.Muted.Render(
		fmt.Sprintf("%d of %d deployments in %s", len(p.matches), len(p.all), draw.OrDash(s.namespace))), w))
	p.rows.Height = h - 1
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
		if s.namespace == "" {
			name = d.Namespace + "/" + d.Name
		}
		line := draw.Fit(fmt.Sprintf(" %-30s %3d/%-3d available  %3d updated  %s",
			name, d.Available, d.Replicas, d.Updated, state), w)
		if i == p.rows.Cursor {
			line = st.Selected.Render(line)
		}
		out = append(out, line)
	}
	if len(p.matches) == 0 {
		out = append(out, draw.Fit(st.Muted.Render(" no deployment matches"), w))
	}
	return out
}
