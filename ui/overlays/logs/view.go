// Package logs is the logs view (l on a pod, or on a ReplicaSet for its
// newest pod): the container's log, followed while the view is open and
// only then, the previous run's with p, wrapped or not, scrollable and
// searchable with /. It reads through screen.LogSource: the embedded
// cluster's kubelet simulator, or a live cluster's pods/log.
package logs

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"rollscope/model"
	"rollscope/ui/draw"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// keep is how many lines the view holds; older ones scroll away for good.
const keep = 10000

// tail is how many lines of an existing log the view starts with.
const tail = 1000

// View is the overlay.
type View struct {
	s              *screen.Screen
	namespace, pod string
	containers     []string // the pod's containers, when known
	container      int
	w, h           int
	previous, wrap bool
	follow         bool // stick to the end as lines arrive
	lines          []string
	scroll         draw.Scroll
	stream         int64
	cancel         context.CancelFunc
	live           bool   // the stream is open
	ended          string // why the log ended, shown at its foot
	failed         bool   // ended with an error
	searching      bool
	input, query   string
	match          int // the logical line of the current match, -1 for none
}

// Open opens the logs of a pod's first container and starts reading them.
func Open(s *screen.Screen, namespace, pod string) (*View, tea.Cmd) {
	v := &View{s: s, namespace: namespace, pod: pod, follow: true, match: -1}
	if src, ok := s.Src.(screen.PodSource); ok {
		if d, ok := src.Pod(namespace, pod); ok {
			for _, c := range d.Containers {
				if !c.Init {
					v.containers = append(v.containers, c.Name)
				}
			}
		}
	}
	return v, v.start()
}

func (v *View) containerName() string {
	if len(v.containers) == 0 {
		return ""
	}
	return v.containers[v.container]
}

// start (re)opens the stream for what the view shows now; the previous
// stream, if any, is closed.
func (v *View) start() tea.Cmd {
	v.stop()
	v.lines, v.ended, v.failed, v.match = nil, "", false, -1
	v.scroll = draw.Scroll{}
	if v.s.Logs == nil {
		v.ended, v.failed = "no cluster to read logs from", true
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel, v.live = cancel, true
	v.stream = streams.Add(1)
	r := model.LogRequest{Namespace: v.namespace, Pod: v.pod, Container: v.containerName(),
		Previous: v.previous, Follow: !v.previous, TailLines: tail}
	return open(ctx, v.s.Logs, r, v.stream)
}

// stop closes the stream: logs are read only while the view is open.
func (v *View) stop() {
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
	v.live = false
}

// SetSize sizes the view to the body.
func (v *View) SetSize(w, h int) { v.w, v.h = w, h }

// KeyMap is the view's keys, for the footer.
func (v *View) KeyMap() help.KeyMap {
	if v.searching {
		return keys.Hints("enter", "search", "esc", "cancel")
	}
	return keys.Hints("esc", "close", "f", "follow", "p", "previous", "w", "wrap", "/", "search", "n/N", "next/prev match", "c", "container")
}

// bodyHeight is the lines left for the log under the title and above the
// search line.
func (v *View) bodyHeight() int { return max(v.h-2, 1) }

// Update takes the stream's lines and the view's keys.
func (v *View) Update(msg tea.Msg) (screen.Overlay, tea.Cmd) {
	switch msg := msg.(type) {
	case linesMsg:
		if msg.stream != v.stream {
			return v, nil
		}
		v.add(msg.lines)
		return v, wait(v.stream, msg.next)
	case endMsg:
		if msg.stream != v.stream {
			return v, nil
		}
		v.live = false
		if msg.err != nil {
			v.ended, v.failed = msg.err.Error(), true
		} else if !v.previous {
			v.ended = "the container's run ended" + v.runState()
		} else {
			v.ended = "end of the previous run's log"
		}
		v.stick()
		return v, nil
	case tea.KeyPressMsg:
		if v.searching {
			return v.typeSearch(msg)
		}
		return v.key(msg)
	case tea.MouseWheelMsg:
		v.move(msg)
	}
	return v, nil
}

func (v *View) key(msg tea.KeyPressMsg) (screen.Overlay, tea.Cmd) {
	k := v.s.Keys
	switch {
	case key.Matches(msg, k.Quit):
		v.stop()
		return v, tea.Quit
	case key.Matches(msg, k.Back):
		v.stop()
		return nil, nil
	}
	switch msg.String() {
	case "f":
		v.follow = !v.follow
		v.stick()
	case "p":
		v.previous = !v.previous
		return v, v.start()
	case "w":
		v.wrap = !v.wrap
		v.stick()
	case "c":
		if len(v.containers) > 1 {
			v.container = (v.container + 1) % len(v.containers)
			return v, v.start()
		}
	case "/":
		v.searching, v.input = true, ""
	case "n":
		v.find(true)
	case "N":
		v.find(false)
	default:
		v.move(msg)
	}
	return v, nil
}

// move scrolls; scrolling up stops following, reaching the end again
// (G, end) follows once more.
func (v *View) move(msg tea.Msg) {
	visual := v.visual()
	if !v.scroll.Move(msg, v.s.Keys, len(visual), v.bodyHeight()) {
		return
	}
	v.follow = v.scroll.AtEnd(len(visual), v.bodyHeight())
}

func (v *View) typeSearch(msg tea.KeyPressMsg) (screen.Overlay, tea.Cmd) {
	switch msg.String() {
	case "esc":
		v.searching = false
	case "enter":
		v.searching, v.query, v.match = false, v.input, -1
		v.find(true)
	case "backspace":
		if r := []rune(v.input); len(r) > 0 {
			v.input = string(r[:len(r)-1])
		}
	default:
		if msg.Text != "" {
			v.input += msg.Text
		}
	}
	return v, nil
}

// find moves to the next (or previous) line holding the query, wrapping
// around, and stops following so the match stays in view.
func (v *View) find(forward bool) {
	if v.query == "" || len(v.lines) == 0 {
		return
	}
	n := len(v.lines)
	start := v.match
	if start < 0 {
		start = topLine(v)
		if !forward {
			start = n
		} else {
			start--
		}
	}
	for i := 1; i <= n; i++ {
		j := (start + i) % n
		if !forward {
			j = ((start-i)%n + n) % n
		}
		if strings.Contains(v.lines[j], v.query) {
			v.match = j
			v.follow = false
			v.scroll.Offset = v.visualIndex(j)
			v.scroll.Clamp(len(v.visual()), v.bodyHeight())
			return
		}
	}
	v.match = -1
	v.s.Toast = "logs: no line holds " + quote(v.query)
}

// topLine is the logical line at the top of the view.
func topLine(v *View) int {
	seen := 0
	for i, l := range v.lines {
		seen += len(v.split(l))
		if seen > v.scroll.Offset {
			return i
		}
	}
	return len(v.lines)
}

func quote(s string) string { return "\"" + s + "\"" }

// add keeps the new lines, the newest keep of them.
func (v *View) add(lines []string) {
	v.lines = append(v.lines, lines...)
	if over := len(v.lines) - keep; over > 0 {
		v.lines = append(v.lines[:0:0], v.lines[over:]...)
		if v.match >= 0 {
			v.match -= over
		}
	}
	v.stick()
}

// stick keeps the end in view while following.
func (v *View) stick() {
	total := len(v.visual())
	if v.follow {
		v.scroll.Offset = draw.Last(total, v.bodyHeight())
	}
	v.scroll.Clamp(total, v.bodyHeight())
}

// split is one log line as it is drawn: cut at the width, or wrapped.
func (v *View) split(line string) []string {
	w := max(v.w-1, 1)
	if !v.wrap || ansi.StringWidth(line) <= w {
		return []string{line}
	}
	return strings.Split(ansi.Hardwrap(line, w, true), "\n")
}

// visual is every drawn line, with the log's end (or its error) last.
func (v *View) visual() []string {
	out := make([]string, 0, len(v.lines)+1)
	for _, l := range v.lines {
		out = append(out, v.split(l)...)
	}
	if v.ended != "" {
		out = append(out, v.split(v.endLine())...)
	}
	return out
}

func (v *View) visualIndex(logical int) int {
	n := 0
	for _, l := range v.lines[:min(logical, len(v.lines))] {
		n += len(v.split(l))
	}
	return n
}

func (v *View) endLine() string {
	if v.failed {
		return "✖ " + v.ended
	}
	return "— " + v.ended + " —"
}

// runState says how the container's run ended, from the pod as the
// console sees it now: "(Terminated Error, exit code 1)".
func (v *View) runState() string {
	src, ok := v.s.Src.(screen.PodSource)
	if !ok {
		return ""
	}
	d, ok := src.Pod(v.namespace, v.pod)
	if !ok {
		return ": the pod is gone"
	}
	for _, c := range d.Containers {
		if c.Name != v.containerName() && v.containerName() != "" {
			continue
		}
		last := c.LastState
		if c.State.Kind == "Terminated" {
			last = c.State
		}
		if last.Kind == "Terminated" {
			out := ": exit code " + draw.Itoa(last.ExitCode)
			if last.Reason != "" {
				out += " (" + last.Reason + ")"
			}
			if c.State.Kind == "Waiting" && c.State.Reason != "" {
				out += ", now " + c.State.Reason
			}
			return out
		}
		return ""
	}
	return ""
}

// View is the title, the log and the search line.
func (v *View) View() string {
	if v.h <= 0 {
		return ""
	}
	st := v.s.Styles
	var b strings.Builder
	b.WriteString(st.AppTitle.Render(" logs " + v.namespace + "/" + v.pod))
	if c := v.containerName(); c != "" {
		b.WriteString(st.Text.Render(" · " + c))
	}
	var flags []string
	switch {
	case v.previous:
		flags = append(flags, "previous run")
	case v.live && v.follow:
		flags = append(flags, "following")
	case v.live:
		flags = append(flags, "paused (f or G to follow)")
	default:
		flags = append(flags, "ended")
	}
	if v.wrap {
		flags = append(flags, "wrap")
	}
	b.WriteString(st.Muted.Render("  " + strings.Join(flags, " · ")))
	out := []string{draw.Fit(b.String(), v.w)}

	visual := v.visual()
	body := v.bodyHeight()
	v.scroll.Clamp(len(visual), body)
	matchStart, matchEnd := -1, -1
	if v.match >= 0 && v.match < len(v.lines) {
		matchStart = v.visualIndex(v.match)
		matchEnd = matchStart + len(v.split(v.lines[v.match]))
	}
	end := min(v.scroll.Offset+body, len(visual))
	for i := v.scroll.Offset; i < end; i++ {
		line := draw.Fit(" "+visual[i], v.w)
		switch {
		case i >= matchStart && i < matchEnd:
			line = st.Selected.Render(line)
		case v.ended != "" && i == len(visual)-1 && v.failed:
			line = st.Bad.Render(line)
		case v.ended != "" && i == len(visual)-1:
			line = st.Muted.Render(line)
		case v.query != "" && strings.Contains(visual[i], v.query):
			line = st.Accent.Render(line)
		}
		out = append(out, line)
	}
	if len(visual) == 0 {
		msg := " waiting for the log…"
		out = append(out, draw.Fit(st.Muted.Render(msg), v.w))
	}
	for len(out) < v.h-1 {
		out = append(out, draw.Fit("", v.w))
	}
	// The last line is the search being typed or found, else the keys,
	// as every overlay keeps its keys in view.
	var pinned screen.Frame
	search := pinned.ActionLine(v.s, v.KeyMap(), v.w)
	switch {
	case v.searching:
		search = st.Accent.Render(" /" + v.input + "▏")
	case v.query != "":
		search = st.Muted.Render(" /" + v.query + "  (n next, N previous)")
	}
	out = append(out[:v.h-1], draw.Fit(search, v.w))
	return strings.Join(out, "\n")
}
