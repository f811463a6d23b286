package trace

import "time"

// nodeInstant holds back node lines until their virtual instant is over.
// At full speed thousands of pods are bound, started and deleted at one
// virtual time, and each moved a node's pod count: a line for each step
// told the reader of nothing an operator could ever see (the console shows
// the cluster between instants), and made node lines 99.6% of a
// 100,000-replica trace. A node now gets at most one line an instant — its
// state at the end of it, and none when that is what its last line said.
type nodeInstant struct {
	at      time.Duration
	held    []string        // nodes changed in this instant, in order of first change
	isHeld  map[string]bool // the same, as a set
	written map[string]nodeLine
}

// NodeLinesPerInstant makes the writer write a node's line at most once per
// instant of the run's clock, after that instant's other lines, with the
// node's state at the end of the instant. It is for runs on a virtual clock,
// where many changes share an instant; a run on the wall clock writes each
// change as it happens. Call it before the first Observe.
func (w *Writer) NodeLinesPerInstant() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.instant = &nodeInstant{isHeld: map[string]bool{}, written: map[string]nodeLine{}}
}

func (ni *nodeInstant) hold(name string) {
	if !ni.isHeld[name] {
		ni.isHeld[name] = true
		ni.held = append(ni.held, name)
	}
}

// forget drops a deleted node: its deletion line is written at once.
func (ni *nodeInstant) forget(name string) {
	if ni == nil {
		return
	}
	delete(ni.written, name)
	// Left in held: close skips names no longer in w.nodes.
}

// reach writes the held lines once the clock has moved past their instant.
func (ni *nodeInstant) reach(w *Writer, t time.Duration) {
	if ni == nil {
		return
	}
	if t != ni.at {
		ni.close(w)
		ni.at = t
	}
}

// close writes the lines held for the current instant.
func (ni *nodeInstant) close(w *Writer) {
	if ni == nil {
		return
	}
	for _, name := range ni.held {
		delete(ni.isHeld, name)
		l, ok := w.nodes[name]
		if !ok {
			continue
		}
		if old, ok := ni.written[name]; ok && old == l {
			continue
		}
		ni.written[name] = l
		w.writeNode(ni.at, name, l)
	}
	ni.held = ni.held[:0]
}
