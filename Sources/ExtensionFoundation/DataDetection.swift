import Foundation

/// The matching behind ``NSDataDetector``: one pass per requested type over the text, then the
/// overlaps resolved (the earlier match wins, then the longer, then link > address > date > phone).
struct DataDetection {
    let types: UInt64

    private struct Candidate {
        var range: NSRange
        var found: DataDetectorResult.Found
        var rank: Int
    }

    func matches(in string: String, range: NSRange) -> [NSTextCheckingResult] {
        let text = string as NSString
        let bounded = NSIntersectionRange(range, NSRange(location: 0, length: text.length))
        guard bounded.length > 0 || range.length == 0 else { return [] }
        var candidates: [Candidate] = []
        if types & CheckingTypeValue.link != 0 { candidates += links(text, bounded) }
        if types & CheckingTypeValue.address != 0 { candidates += addresses(text, bounded) }
        if types & CheckingTypeValue.date != 0 { candidates += dates(text, bounded) }
        if types & CheckingTypeValue.phoneNumber != 0 { candidates += phoneNumbers(text, bounded) }
        candidates.sort {
            if $0.range.location != $1.range.location { return $0.range.location < $1.range.location }
            if $0.range.length != $1.range.length { return $0.range.length > $1.range.length }
            return $0.rank < $1.rank
        }
        var taken: [Candidate] = []
        for candidate in candidates {
            let end = candidate.range.location + candidate.range.length
            if let last = taken.last, candidate.range.location < last.range.location + last.range.length { continue }
            if end > bounded.location + bounded.length { continue }
            taken.append(candidate)
        }
        return taken.map { DataDetectorResult(range: $0.range, found: $0.found) }
    }

    // MARK: - Links

    private static let schemeLink = expression(#"(?i)\b(?:(?:https?|ftp)://|mailto:)[^\s<>"]+"#)
    private static let wwwLink = expression(#"(?i)\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s<>"]*"#)
    private static let email = expression(#"(?i)(?<![\w.%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b"#)
    private static let bareHost = expression(
        #"(?i)(?<![@\w./:-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"#
            + #"(?:com|org|net|edu|gov|io|co|app|dev|info|me|tv|ai|us|uk|ca|de|fr|jp|au|nl|eu|ch|it|es|se|no|be|at|"#
            + #"dk|fi|nz|ie|in|br|biz|ly|xyz)\b(?:/[^\s<>"]*)?"#)

    private func links(_ text: NSString, _ range: NSRange) -> [Candidate] {
        var found: [Candidate] = []
        let sources: [(NSRegularExpression?, (String) -> String)] = [
            (Self.schemeLink, { $0 }), (Self.wwwLink, { "http://" + $0 }), (Self.email, { "mailto:" + $0 }),
            (Self.bareHost, { "http://" + $0 }),
        ]
        for (expression, absolute) in sources {
            for match in expression?.matches(in: text as String, options: [], range: range) ?? [] {
                var link = text.substring(with: match.range)
                while let last = link.last, ".,;:!?)]}'\"".contains(last) { link.removeLast() }
                let length = (link as NSString).length
                guard length > 0, let url = URL(string: absolute(link)) else { continue }
                found.append(
                    Candidate(
                        range: NSRange(location: match.range.location, length: length), found: .link(url), rank: 0))
            }
        }
        return found
    }

    // MARK: - Phone numbers

    private static let phone = expression(
        #"(?<![\w+/.-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{2,4}){1,4}(?![\w/])"#
            + #"|(?<![\w+])\+\d{7,15}(?!\w)"#)
    private static let isoDay = expression(#"^\d{4}-\d{2}-\d{2}$"#)

    private func phoneNumbers(_ text: NSString, _ range: NSRange) -> [Candidate] {
        (Self.phone?.matches(in: text as String, options: [], range: range) ?? []).compactMap { match in
            let number = text.substring(with: match.range)
            let digits = number.filter(\.isNumber).count
            guard (7...15).contains(digits),
                Self.isoDay?.firstMatch(
                    in: number, options: [], range: NSRange(location: 0, length: match.range.length))
                    == nil
            else { return nil }
            return Candidate(range: match.range, found: .phoneNumber(number), rank: 3)
        }
    }

    // MARK: - Addresses

    private static let address = expression(
        #"\b(\d{1,6}(?:\s+[A-Za-z0-9.'#-]+){1,8}),\s*([A-Z][A-Za-z.'-]*(?:\s+[A-Z][A-Za-z.'-]*){0,3}),\s*"#
            + #"([A-Z]{2})\s+(\d{5}(?:-\d{4})?)\b"#)

    private func addresses(_ text: NSString, _ range: NSRange) -> [Candidate] {
        (Self.address?.matches(in: text as String, options: [], range: range) ?? []).map { match in
            let parts: [NSTextCheckingKey: String] = [
                .street: text.substring(with: match.range(at: 1)), .city: text.substring(with: match.range(at: 2)),
                .state: text.substring(with: match.range(at: 3)), .zip: text.substring(with: match.range(at: 4)),
            ]
            return Candidate(range: match.range, found: .address(parts), rank: 1)
        }
    }

    // MARK: - Dates

    private static let months =
        "January|February|March|April|May|June|July|August|September|October|November|December|"
        + "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
    private static let time = #"(?:,?\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?)?"#
    private static let iso = expression(
        #"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?(?![\w:-])"#)
    private static let monthFirst = expression(
        #"(?i)\b("# + months + #")\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?!\d)"# + time)
    private static let dayFirst = expression(
        #"(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+("# + months + #")\.?(?:,?\s+(\d{4}))?(?!\d)"# + time)
    private static let numeric = expression(#"\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])"# + time)

    private func dates(_ text: NSString, _ range: NSRange) -> [Candidate] {
        let string = text as String
        var found: [Candidate] = []
        func group(_ match: NSTextCheckingResult, _ index: Int) -> String? {
            let range = match.range(at: index)
            return range.location == NSNotFound ? nil : text.substring(with: range)
        }
        for match in Self.iso?.matches(in: string, options: [], range: range) ?? [] {
            let zone = group(match, 7).flatMap(Self.timeZone)
            if let date = Self.date(
                year: group(match, 1), month: group(match, 2), day: group(match, 3), hour: group(match, 4),
                minute: group(match, 5), second: group(match, 6), meridiem: nil, zone: zone)
            {
                found.append(Candidate(range: match.range, found: .date(date, zone, 0), rank: 2))
            }
        }
        let named: [(NSRegularExpression?, month: Int, day: Int)] = [(Self.monthFirst, 1, 2), (Self.dayFirst, 2, 1)]
        for (expression, monthGroup, dayGroup) in named {
            for match in expression?.matches(in: string, options: [], range: range) ?? [] {
                let month = group(match, monthGroup).flatMap(Self.monthNumber).map(String.init)
                if let date = Self.date(
                    year: group(match, 3), month: month, day: group(match, dayGroup), hour: group(match, 4),
                    minute: group(match, 5), second: group(match, 6), meridiem: group(match, 7), zone: nil)
                {
                    found.append(Candidate(range: match.range, found: .date(date, nil, 0), rank: 2))
                }
            }
        }
        for match in Self.numeric?.matches(in: string, options: [], range: range) ?? [] {
            let year = group(match, 3).map { $0.count == 2 ? "20" + $0 : $0 }
            if let date = Self.date(
                year: year, month: group(match, 1), day: group(match, 2), hour: group(match, 4),
                minute: group(match, 5), second: group(match, 6), meridiem: group(match, 7), zone: nil)
            {
                found.append(Candidate(range: match.range, found: .date(date, nil, 0), rank: 2))
            }
        }
        return found
    }

    private static func monthNumber(_ name: String) -> Int? {
        let prefix = name.lowercased().prefix(3)
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return names.firstIndex(of: String(prefix)).map { $0 + 1 }
    }

    private static func timeZone(_ text: String) -> TimeZone? {
        if text == "Z" { return TimeZone(secondsFromGMT: 0) }
        let sign = text.hasPrefix("-") ? -1 : 1
        let digits = text.dropFirst().filter(\.isNumber)
        guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)) else {
            return nil
        }
        return TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
    }

    /// A valid date from the parts (a missing year is this year, a missing time noon), or nil.
    private static func date(
        year: String?, month: String?, day: String?, hour: String?, minute: String?, second: String?,
        meridiem: String?, zone: TimeZone?
    ) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone ?? TimeZone.current
        guard let month = month.flatMap({ Int($0) }), let day = day.flatMap({ Int($0) }), (1...12).contains(month)
        else { return nil }
        var components = DateComponents()
        components.year = year.flatMap { Int($0) } ?? calendar.component(.year, from: Date())
        components.month = month
        components.day = day
        var hours = hour.flatMap { Int($0) } ?? 12
        if let meridiem {
            guard (1...12).contains(hours) else { return nil }
            let afternoon = meridiem.lowercased() == "p"
            hours = hours % 12 + (afternoon ? 12 : 0)
        }
        components.hour = hours
        components.minute = minute.flatMap { Int($0) } ?? 0
        components.second = second.flatMap { Int($0) } ?? 0
        guard (0...23).contains(hours), (0...59).contains(components.minute ?? 0),
            (0...60).contains(components.second ?? 0),
            components.isValidDate(in: calendar)
        else { return nil }
        return calendar.date(from: components)
    }

    /// The patterns are constants of this file: one that does not compile is a programmer error the
    /// tests catch; it then matches nothing rather than trapping.
    private static func expression(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [])
    }
}
