package crawl

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
)

// NewBar returns a Progress that draws a progress bar on w, a terminal.
func NewBar(w io.Writer) Progress { return &bar{w: w} }

type bar struct {
	w  io.Writer
	mu sync.Mutex
	pb *progressbar.ProgressBar
}

func (b *bar) Start(total int) {
	b.pb = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(b.w),
		progressbar.OptionSetDescription("crawling"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(b.w) }),
	)
}

func (b *bar) Done(r Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := "ok"
	if r.Err != nil {
		st = "FAILED"
	}
	b.pb.Describe(r.Server + ": " + st)
	b.pb.Add(1)
}

// NewLines returns a Progress that prints one plain line per finished
// server on w: for logs and pipes, where a bar would be noise.
func NewLines(w io.Writer) Progress { return &lines{w: w} }

type lines struct {
	w     io.Writer
	mu    sync.Mutex
	total int
	done  int
}

func (l *lines) Start(total int) { l.total = total }

func (l *lines) Done(r Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done++
	fmt.Fprintf(l.w, "crawl [%d/%d] %s: %s (%s)\n", l.done, l.total, r.Server, status(r), r.Elapsed.Round(time.Millisecond))
}

func status(r Result) string {
	if r.Err != nil {
		return "FAILED: " + r.Err.Error()
	}
	s := "ok"
	if r.Truncated > 0 {
		s += fmt.Sprintf(", %d resource texts cut", r.Truncated)
	}
	if r.Binary+r.ReadFails > 0 {
		s += fmt.Sprintf(", %d binary and %d unreadable resources left out", r.Binary, r.ReadFails)
	}
	return s
}

// WriteSummary prints a table of results: server, counts, time, status.
// With resource reading it adds how many texts were kept and cut.
func WriteSummary(w io.Writer, results []Result, readResources bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "server\ttools\tprompts\tresources\ttemplates\t"
	if readResources {
		head += "texts\ttruncated\t"
	}
	fmt.Fprintln(tw, head+"time\t status\t")
	for _, r := range results {
		row := fmt.Sprintf("%s\t%d\t%d\t%d\t%d\t", r.Server, r.Tools, r.Prompts, r.Resources, r.Templates)
		if readResources {
			row += fmt.Sprintf("%d\t%d\t", r.Contents, r.Truncated)
		}
		st := " ok"
		if r.Err != nil {
			st = " FAILED"
		}
		fmt.Fprintln(tw, row+fmt.Sprintf("%.2fs\t%s\t", r.Elapsed.Seconds(), st))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeStripped(w, results); err != nil {
		return err
	}
	return writeDroppedRequests(w, results)
}

// maxStrippedNamed is how many stripped places a server's line names
// before it counts the rest.
const maxStrippedNamed = 10

// writeStripped names, for each server, what its answer held under the
// project's keys, which the crawl left out: an upstream that sets its own
// visibility or requests is worth a look.
func writeStripped(w io.Writer, results []Result) error {
	for _, r := range results {
		if len(r.Stripped) == 0 {
			continue
		}
		named := r.Stripped[:min(len(r.Stripped), maxStrippedNamed)]
		more := ""
		if n := len(r.Stripped) - len(named); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		if _, err := fmt.Fprintf(w, "%s: the upstream answered keys only the operator's files set (io.github.mcpsearch/…); left out of %d places: %s%s\n",
			r.Server, len(r.Stripped), strings.Join(named, "; "), more); err != nil {
			return err
		}
	}
	return nil
}

// writeDroppedRequests names, for each server, the items whose written
// requests the crawl dropped because they changed or are gone: their
// requests are to be written again.
func writeDroppedRequests(w io.Writer, results []Result) error {
	for _, r := range results {
		if len(r.RequestsDropped) == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s: kept the requests of %d items; dropped the requests of %d items that changed or are gone (write them again): %s\n",
			r.Server, r.RequestsKept, len(r.RequestsDropped), strings.Join(r.RequestsDropped, ", ")); err != nil {
			return err
		}
	}
	return nil
}
