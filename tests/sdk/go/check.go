// The checks every step of the program uses: each compares one field of one operation's typed
// output with what AWS answers, and a failure prints "FAIL <Operation>.<field>: ..." so a reader
// knows at once which call and which field differed. Checks do not stop the run (one run reports
// every difference); a call that fails outright does, since later steps build on it.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
)

// How far a timestamp may be from the client's clock: client and server share a machine.
const clockSlack = 5 * time.Minute

type checker struct {
	failures int
	checks   int
}

func (c *checker) fail(op, field, format string, args ...any) {
	c.failures++
	fmt.Printf("FAIL %s.%s: %s\n", op, field, fmt.Sprintf(format, args...))
}

func (c *checker) pass() { c.checks++ }

// must stops the run when a call that should succeed fails.
func (c *checker) must(op string, err error) {
	if err != nil {
		fmt.Printf("FAIL %s: the call failed: %v\n", op, err)
		fmt.Printf("%d checks passed, %d failed before %s\n", c.checks, c.failures+1, op)
		os.Exit(1)
	}
}

// str checks a string field AWS always returns with a known value.
func (c *checker) str(op, field string, got *string, want string) string {
	switch {
	case got == nil:
		c.fail(op, field, "missing, want %q", want)
		return ""
	case *got != want:
		c.fail(op, field, "got %q, want %q", *got, want)
	default:
		c.pass()
	}
	return *got
}

// match checks a string field AWS always returns whose value is known only by its form.
func (c *checker) match(op, field string, got *string, pattern *regexp.Regexp) string {
	switch {
	case got == nil:
		c.fail(op, field, "missing, want a value matching %s", pattern)
		return ""
	case !pattern.MatchString(*got):
		c.fail(op, field, "got %q, want a value matching %s", *got, pattern)
	default:
		c.pass()
	}
	return *got
}

// absent checks a field AWS leaves out in this situation (nil, empty, or an unset enum).
func (c *checker) absent(op, field string, got any) {
	if !isAbsent(got) {
		c.fail(op, field, "present (%s), want it left out", show(got))
		return
	}
	c.pass()
}

func isAbsent(got any) bool {
	if got == nil {
		return true
	}
	v := reflect.ValueOf(got)
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	}
	panic(fmt.Sprintf("absent cannot tell whether a %T is set", got))
}

// equal checks any field (enum, list, map, structure) against its expected value.
func (c *checker) equal(op, field string, got, want any) {
	if !reflect.DeepEqual(got, want) {
		c.fail(op, field, "got %s, want %s", show(got), show(want))
		return
	}
	c.pass()
}

// i32 checks an optional integer that AWS returns with a known value.
func (c *checker) i32(op, field string, got *int32, want int32) {
	switch {
	case got == nil:
		c.fail(op, field, "missing, want %d", want)
	case *got != want:
		c.fail(op, field, "got %d, want %d", *got, want)
	default:
		c.pass()
	}
}

// recent checks a timestamp that records something done during this run.
func (c *checker) recent(op, field string, got *time.Time, since time.Time) time.Time {
	switch {
	case got == nil:
		c.fail(op, field, "missing, want a time after %s", since.Format(time.RFC3339))
		return time.Time{}
	case got.Before(since.Add(-clockSlack)) || got.After(time.Now().Add(clockSlack)):
		c.fail(op, field, "got %s, want a time between %s and now", got.Format(time.RFC3339Nano),
			since.Format(time.RFC3339Nano))
	default:
		c.pass()
	}
	return *got
}

// errorCode checks that a call failed with the modeled error AWS answers (and its HTTP status).
func (c *checker) errorCode(op string, err error, code string, status int) {
	var apiErr smithy.APIError
	switch {
	case err == nil:
		c.fail(op, "error", "the call succeeded, want %s", code)
	case !errors.As(err, &apiErr):
		c.fail(op, "error", "got %v, want %s", err, code)
	case apiErr.ErrorCode() != code:
		c.fail(op, "error", "got %s (%s), want %s", apiErr.ErrorCode(), apiErr.ErrorMessage(), code)
	default:
		if got := httpStatus(err); got != status {
			c.fail(op, "error", "%s came with HTTP %d, want %d", code, got, status)
			return
		}
		c.pass()
	}
}

// show prints a value for a failure message: as JSON, which follows pointers and unions.
func show(v any) string {
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%+v", v)
}

// httpStatus is the HTTP status of a failed call, or 0 when it never got an answer.
func httpStatus(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}
