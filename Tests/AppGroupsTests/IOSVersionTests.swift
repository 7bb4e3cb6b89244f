import AppGroups
import Foundation
import Testing

struct IOSVersionTests {
    @Test(arguments: [("18", "18.0"), ("17.4", "17.4"), ("17.4.1", "17.4.1"), ("26.0", "26.0")])
    func versionsParseAndPrint(_ text: String, _ printed: String) throws {
        #expect(try #require(IOSVersion(text)).description == printed)
    }

    @Test(arguments: ["", "18.", ".4", "18.x", "1.2.3.4", "-1", "١٨"])
    func otherTextIsNoVersion(_ text: String) {
        #expect(IOSVersion(text) == nil)
    }

    @Test func versionsOrderAndDecideTheOpenURLSelector() throws {
        let versions = ["17.4.1", "18", "12.0", "17.4", "18.1"].compactMap(IOSVersion.init)
        #expect(versions.sorted().map(\.description) == ["12.0", "17.4", "17.4.1", "18.0", "18.1"])
        #expect(try #require(IOSVersion("17.7")).opensURLsThroughOpenURLSelector)
        #expect(try #require(IOSVersion("18.0")).opensURLsThroughOpenURLSelector == false)
        let encoded = try JSONEncoder().encode([IOSVersion(major: 17, minor: 4)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["17.4"]"#)
        #expect(try JSONDecoder().decode([IOSVersion].self, from: encoded) == [IOSVersion(major: 17, minor: 4)])
    }
}
