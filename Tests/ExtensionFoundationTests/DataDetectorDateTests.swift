import ExtensionFoundation
import Foundation
import Testing

/// `NSDataDetector` for dates in the forms shared text carries (ISO 8601 with its offset, US
/// numeric dates with a 12-hour time), and its enumeration, first-range and count forms.
struct DataDetectorDateTests {
    func matches(_ text: String, _ types: NSTextCheckingTypes) throws -> [NSTextCheckingResult] {
        try NSDataDetector(types: types).matches(
            in: text, range: NSRange(location: 0, length: (text as NSString).length))
    }

    @Test func anISODateKeepsItsTimeZone() throws {
        let found = try matches("Meet at 2025-03-14T09:30:00+05:30 in the lobby", spelling.date)
        #expect(found.count == 1)
        let date = try #require(found.first?.date)
        #expect(found.first?.timeZone == TimeZone(secondsFromGMT: 5 * 3600 + 30 * 60))
        #expect(found.first?.duration == 0)
        #expect(date == Date(timeIntervalSince1970: 1_741_924_800), "09:30 at +05:30 is 04:00 UTC")
        let utc = try matches("Deadline 2025-03-14T04:00Z.", spelling.date)
        #expect(utc.first?.date == date && utc.first?.timeZone == TimeZone(secondsFromGMT: 0))
        // A link has no time zone or duration.
        let link = try matches("see https://example.com", spelling.link)
        #expect(link.first?.timeZone == nil && link.first?.duration == 0)
    }

    @Test func aNumericDateWithA12HourTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let found = try matches("Due 3/14/25 at 2:30 pm, or 12/1/2025 at 12:05 AM", spelling.date)
        #expect(found.count == 2)
        let first = try #require(found.first?.date)
        #expect(
            calendar.dateComponents([.year, .month, .day, .hour, .minute], from: first)
                == DateComponents(year: 2025, month: 3, day: 14, hour: 14, minute: 30))
        let second = try #require(found.last?.date)
        #expect(
            calendar.dateComponents([.month, .day, .hour, .minute], from: second)
                == DateComponents(month: 12, day: 1, hour: 0, minute: 5))
        // No 13th month, and no 13 o'clock in the afternoon: not dates.
        #expect(try matches("13/1/2025 or 3/1/2025 at 13:00 pm", spelling.date).isEmpty)
    }

    @Test func enumerationStopsWhenAskedAndCountsAgree() throws {
        let text = "a.com b.com c.com"
        let detector = try NSDataDetector(types: spelling.link)
        let whole = NSRange(location: 0, length: (text as NSString).length)
        #expect(detector.numberOfMatches(in: text, options: [], range: whole) == 3)
        var seen: [String] = []
        detector.enumerateMatches(in: text, options: [], range: whole) { result, _, stop in
            seen.append(result?.url?.host ?? "?")
            if seen.count == 2 { stop.pointee = true }
        }
        #expect(seen == ["a.com", "b.com"])
        #expect(detector.rangeOfFirstMatch(in: text, options: [], range: whole) == NSRange(location: 0, length: 5))
        let none = detector.rangeOfFirstMatch(in: "no links", options: [], range: NSRange(location: 0, length: 8))
        #expect(none.location == NSNotFound)
    }
}
