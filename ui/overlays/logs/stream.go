package logs

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/ui/screen"
)

// streams numbers every stream the console opens, so that what an earlier
// stream (of this view or a closed one) still delivers is recognised and
// dropped.
var streams atomic.Int64

// batchLines bounds the lines one message carries, so a large log arrives
// in a few redraws instead of one per line.
const batchLines = 500

// item is one line read, or the end of the stream (done, with its error).
type item struct {
	line string
	done bool
	err  error
}

// linesMsg carries the lines read since the last one; endMsg says the
// stream ended and why (nil: the log is complete, or the run ended).
type linesMsg struct {
	stream int64
	lines  []string
	next   <-chan item
}

type endMsg struct {
	stream int64
	err    error
}

// open starts reading r from src in a command: the request may block on the
// API server. The stream lives until ctx ends (the view closes, or asks
// for another log) or the log ends.
func open(ctx context.Context, src screen.LogSource, r model.LogRequest, stream int64) tea.Cmd {
	return func() tea.Msg {
		rc, err := src.Open(ctx, r)
		if err != nil {
			return endMsg{stream: stream, err: err}
		}
		ch := make(chan item, 4*batchLines)
		go read(ctx, rc, ch)
		return wait(stream, ch)()
	}
}

// read sends each line of rc to ch, then the end; it stops early when ctx
// ends, and always closes rc.
func read(ctx context.Context, rc io.ReadCloser, ch chan<- item) {
	defer rc.Close()
	stop := context.AfterFunc(ctx, func() { rc.Close() })
	defer stop()
	br := bufio.NewReader(rc)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			select {
			case ch <- item{line: strings.TrimRight(line, "\r\n")}:
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				err = nil
			}
			select {
			case ch <- item{done: true, err: err}:
			case <-ctx.Done():
			}
			return
		}
	}
}

// wait is the command that waits for the next lines, taking what else has
// arrived with them.
func wait(stream int64, ch <-chan item) tea.Cmd {
	return func() tea.Msg {
		it, ok := <-ch
		if !ok || it.done {
			return endMsg{stream: stream, err: it.err}
		}
		lines := []string{it.line}
		for len(lines) < batchLines {
			select {
			case it, ok := <-ch:
				if !ok || it.done {
					// The end goes in the next message.
					return linesMsg{stream: stream, lines: lines, next: ended(it.err)}
				}
				lines = append(lines, it.line)
			default:
				return linesMsg{stream: stream, lines: lines, next: ch}
			}
		}
		return linesMsg{stream: stream, lines: lines, next: ch}
	}
}

// ended is a stream that has only its end left to say.
func ended(err error) <-chan item {
	ch := make(chan item, 1)
	ch <- item{done: true, err: err}
	close(ch)
	return ch
}
