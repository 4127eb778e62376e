package web

import "time"

// appendDateTime appends t's date and time of day in UTC as
// "2006-01-02<sep>15:04:05", as time.Format does for a year 0-9999; the
// callers check the year.
func appendDateTime(b []byte, t time.Time, sep byte) []byte {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+int(mo)/10), byte('0'+int(mo)%10), '-', byte('0'+d/10), byte('0'+d%10), sep,
		byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+s/10), byte('0'+s%10))
}

// appendRFC3339Nano is t.AppendFormat(b, time.RFC3339Nano), faster for a
// time in UTC of a year 0-9999 (the others go to AppendFormat).
func appendRFC3339Nano(b []byte, t time.Time) []byte {
	if y := t.Year(); t.Location() != time.UTC || y < 0 || y > 9999 {
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	b = appendDateTime(b, t, 'T')
	if ns := t.Nanosecond(); ns != 0 {
		var f [10]byte
		f[0] = '.'
		for i := 9; i >= 1; i-- {
			f[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for f[n-1] == '0' {
			n--
		}
		b = append(b, f[:n]...)
	}
	return append(b, 'Z')
}

// appendWhen is t.UTC().AppendFormat(b, "2006-01-02 15:04:05 MST"), the
// pages' "when", faster for a year 0-9999.
func appendWhen(b []byte, t time.Time) []byte {
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return t.AppendFormat(b, "2006-01-02 15:04:05 MST")
	}
	return append(appendDateTime(b, t, ' '), " UTC"...)
}
