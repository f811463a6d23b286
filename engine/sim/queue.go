package sim

import (
	"time"

	"rollscope/engine/control"
)

// controllerState is one controller with its work queue. A queue is a FIFO
// of keys without duplicates, like client-go's workqueue; delayed keys wait
// in the runner's timer heap. Only the runner's goroutine touches it.
type controllerState struct {
	ctrl     control.Controller
	runner   *Runner
	fifo     []string
	head     int
	queued   map[string]bool
	failures map[string]int
	syncs    int
	// nextTurn is the earliest virtual time this controller may run its
	// queue again; waking says a timer for nextTurn is already pending.
	nextTurn time.Time
	waking   bool
}

var _ control.Queue = (*controllerState)(nil)

func (c *controllerState) Add(key string) {
	if c.queued[key] {
		return
	}
	c.queued[key] = true
	c.fifo = append(c.fifo, key)
	c.wakeAtTurn()
}

// ready reports whether the controller may take its turn at now.
func (c *controllerState) ready(now time.Time) bool {
	return !c.empty() && !now.Before(c.nextTurn)
}

// wakeAtTurn makes sure the clock stops at nextTurn while work is waiting.
func (c *controllerState) wakeAtTurn() {
	if c.waking || c.empty() || !c.runner.clock.Now().Before(c.nextTurn) {
		return
	}
	c.waking = true
	c.runner.addKeyTimer(c.nextTurn, c, "")
}

func (c *controllerState) AddAfter(key string, d time.Duration) {
	if d <= 0 {
		c.Add(key)
		return
	}
	c.runner.addKeyTimer(c.runner.clock.Now().Add(d), c, key)
}

func (c *controllerState) pop() (string, bool) {
	if c.head == len(c.fifo) {
		return "", false
	}
	key := c.fifo[c.head]
	c.fifo[c.head] = ""
	c.head++
	if c.head == len(c.fifo) {
		c.fifo, c.head = c.fifo[:0], 0
	}
	delete(c.queued, key)
	return key, true
}

func (c *controllerState) empty() bool { return c.head == len(c.fifo) }

func (c *controllerState) len() int { return len(c.fifo) - c.head }

// Upstream controllers retry failed keys with exponential back-off starting
// at 5ms, up to 1000s, and give up after 15 retries.
const (
	retryBase  = 5 * time.Millisecond
	retryMax   = 1000 * time.Second
	maxRetries = 15
)

func (c *controllerState) retry(key string) bool {
	n := c.failures[key]
	if n >= maxRetries {
		delete(c.failures, key)
		return false
	}
	c.failures[key] = n + 1
	d := retryBase << n
	if d > retryMax || d <= 0 {
		d = retryMax
	}
	c.AddAfter(key, d)
	return true
}
