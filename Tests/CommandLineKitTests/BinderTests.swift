import CommandLineKit
import Testing

@Suite("The second stage binds tokens to the command, its options and its arguments")
struct BinderTests {
    @Test("reach with connection options after the command and a command to run")
    func reachExample() throws {
        let parsed = try Fixture.parse([
            "reach", "email", "ada", "lovelace", "-H", "ldap://x", "-D", "cn=admin,dc=example,dc=com",
            "-y", "pwfile", "--pick", "2", "--exec", "mutt", "-s", "hi", "{}",
        ])
        #expect(parsed.command == Fixture.reach)
        #expect(parsed.helpRequested == nil)
        #expect(parsed.positional("FIELD") == "email")
        #expect(parsed.positionals("FIELD") == ["email"])
        #expect(parsed.positionals("QUERY") == ["ada", "lovelace"])
        #expect(parsed.value("--uri") == "ldap://x")
        #expect(parsed.value("--bind-dn") == "cn=admin,dc=example,dc=com")
        #expect(parsed.value("-y") == "pwfile")
        #expect(try parsed.integer("--pick") == 2)
        #expect(parsed.remainder("--exec") == ["mutt", "-s", "hi", "{}"])
    }

    @Test("find with a global option before the command")
    func findExample() throws {
        let parsed = try Fixture.parse(["-H", "ldap://x", "find", "jo", "--limit", "5", "--format", "json"])
        #expect(parsed.command == Fixture.find)
        #expect(parsed.value("-H") == "ldap://x")
        #expect(parsed.positionals("QUERY") == ["jo"])
        #expect(parsed.value("--limit") == "5")
        #expect(parsed.value("--format") == "json")
        #expect(parsed.values("--field") == [])
    }

    @Test("global options are accepted before and after the command, in any mix", arguments: [
        ["-H", "ldap://x", "-b", "dc=example,dc=com", "-W", "find", "jo"],
        ["find", "jo", "-H", "ldap://x", "-b", "dc=example,dc=com", "-W"],
        ["-W", "find", "-H", "ldap://x", "jo", "-b", "dc=example,dc=com"],
        ["--uri=ldap://x", "find", "--base", "dc=example,dc=com", "jo", "-W"],
        ["-WHldap://x", "find", "-bdc=example,dc=com", "jo"],
    ])
    func globalOptionsAnywhere(_ arguments: [String]) throws {
        let parsed = try Fixture.parse(arguments)
        #expect(parsed.command?.name == "find")
        #expect(parsed.value("--uri") == "ldap://x")
        #expect(parsed.value("-b") == "dc=example,dc=com")
        #expect(parsed.flag("-W"))
        #expect(!parsed.flag("-Z"))
        #expect(parsed.positionals("QUERY") == ["jo"])
    }

    @Test("a value can be attached, follow as the next argument, or follow =", arguments: [
        ["find", "jo", "-l5"], ["find", "jo", "-l", "5"], ["find", "jo", "--limit=5"], ["find", "jo", "--limit", "5"],
    ])
    func valueForms(_ arguments: [String]) throws {
        #expect(try Fixture.parse(arguments).integer("--limit") == 5)
    }

    @Test("short flags bundle, and the last of a bundle may take a value")
    func bundles() throws {
        let parsed = try Fixture.parse(["-xZH", "ldap://x", "status", "-vxZ"])
        #expect(parsed.flag("-x") && parsed.flag("-Z") && parsed.flag("--verbose"))
        #expect(!parsed.flag("-W"))
        #expect(parsed.value("-H") == "ldap://x")
        let attached = try Fixture.parse(["-xZHldaps://y:636", "status"])
        #expect(attached.value("-H") == "ldaps://y:636")
        #expect(attached.flag("-Z"))
    }

    @Test("a flag may be given again: -ZZ means -Z")
    func repeatedFlag() throws {
        let parsed = try Fixture.parse(["-ZZ", "status", "-Z"])
        #expect(parsed.flag("-Z"))
    }

    @Test("values that look like options are taken when an option expects one", arguments: [
        ("-1", "-1"), ("-", "-"), ("", ""), ("-x", "-x"), ("-h", "-h"), ("ünïcødé", "ünïcødé"),
    ])
    func dashedValues(_ given: String, _ expected: String) throws {
        let parsed = try Fixture.parse(["find", "--format", given, "jo"])
        #expect(parsed.value("--format") == expected)
        #expect(parsed.helpRequested == nil)
    }

    @Test("a negative number is a value of an integer option")
    func negativeNumber() throws {
        #expect(try Fixture.parse(["find", "jo", "--limit", "-1"]).integer("--limit") == -1)
        #expect(try Fixture.parse(["find", "jo", "-l-1"]).integer("-l") == -1)
    }

    @Test("- and the empty string are positional arguments")
    func dashAndEmptyPositionals() throws {
        let parsed = try Fixture.parse(["find", "-", "", "jo"])
        #expect(parsed.positionals("QUERY") == ["-", "", "jo"])
    }

    @Test("after -- everything is positional")
    func terminator() throws {
        let parsed = try Fixture.parse(["find", "--limit", "3", "--", "--limit", "-x", "--help", "-w", "--"])
        #expect(parsed.positionals("QUERY") == ["--limit", "-x", "--help", "-w", "--"])
        #expect(parsed.value("--limit") == "3")
        #expect(!parsed.flag("-x"))
        #expect(parsed.helpRequested == nil)
    }

    @Test("a value given as --name=value may start with --")
    func valueStartingWithDashes() throws {
        #expect(try Fixture.parse(["find", "jo", "--format=--odd"]).value("--format") == "--odd")
    }

    @Test("a remainder option takes every later argument verbatim")
    func remainder() throws {
        let parsed = try Fixture.parse(["reach", "email", "ada", "--exec", "sh", "-c", "--", "--help", "-w", "--pick", "3", "{}"])
        #expect(parsed.remainder("--exec") == ["sh", "-c", "--", "--help", "-w", "--pick", "3", "{}"])
        #expect(parsed.value("--pick") == nil)
        #expect(parsed.helpRequested == nil)
        #expect(parsed.positionals("QUERY") == ["ada"])
    }

    @Test("a remainder option's first argument may be attached")
    func attachedRemainder() throws {
        let parsed = try Fixture.parse(["reach", "phone", "ada", "--exec=dial", "--now", "{}"])
        #expect(parsed.remainder("--exec") == ["dial", "--now", "{}"])
    }

    @Test("a remainder option not given reads as nil")
    func absentRemainder() throws {
        #expect(try Fixture.parse(["reach", "phone", "ada"]).remainder("--exec") == nil)
    }

    @Test("a repeatable option keeps its values in order")
    func repeatedValues() throws {
        let parsed = try Fixture.parse(["add", "--given", "Ada", "--mail", "ada@example.com", "--given=Augusta", "--given", "-"])
        #expect(parsed.values("--given") == ["Ada", "Augusta", "-"])
        #expect(parsed.values("--mail") == ["ada@example.com"])
        #expect(try Fixture.parse(["-H", "ldap://x", "status"]).values("--uri") == ["ldap://x"])
        #expect(try Fixture.parse(["status"]).values("--uri") == [])
    }

    @Test("options and positional arguments mix in any order")
    func mixed() throws {
        let parsed = try Fixture.parse(["find", "ada", "--limit", "2", "king", "--field", "mail", "lovelace"])
        #expect(parsed.positionals("QUERY") == ["ada", "king", "lovelace"])
        #expect(parsed.values("--field") == ["mail"])
    }

    @Test("an optional positional argument may be left out")
    func optionalPositional() throws {
        #expect(try Fixture.parse(["status"]).positional("SERVER") == nil)
        #expect(try Fixture.parse(["status", "ldap://y"]).positional("SERVER") == "ldap://y")
    }

    @Test("a repeating argument leaves the later ones what they need")
    func positionalDistribution() throws {
        let tag = CommandSpec("tag", abstract: "Tag people.", positionals: [
            PositionalSpec("PERSON", help: "People to tag.", isRepeating: true),
            PositionalSpec("TAG", help: "The tag."),
            PositionalSpec("NOTE", help: "A note.", isOptional: true),
        ])
        let parser = CommandLineParser(programName: "tagger", commands: [tag])
        let two = try parser.parse(["tag", "ada", "friends"])
        #expect(two.positionals("PERSON") == ["ada"])
        #expect(two.positional("TAG") == "friends")
        #expect(two.positional("NOTE") == nil)
        let four = try parser.parse(["tag", "ada", "grace", "friends", "met in 1843"])
        #expect(four.positionals("PERSON") == ["ada", "grace", "friends"])
        #expect(four.positional("TAG") == "met in 1843")
        #expect(four.positional("NOTE") == nil)
    }

    @Test("optional arguments before a required one are filled only when there is a spare value")
    func optionalBeforeRequired() throws {
        let copy = CommandSpec("copy", abstract: "Copy.", positionals: [
            PositionalSpec("FROM", help: "Source.", isOptional: true),
            PositionalSpec("TO", help: "Destination."),
        ])
        let parser = CommandLineParser(programName: "copier", commands: [copy])
        let one = try parser.parse(["copy", "b"])
        #expect(one.positional("FROM") == nil)
        #expect(one.positional("TO") == "b")
        let two = try parser.parse(["copy", "a", "b"])
        #expect(two.positional("FROM") == "a")
        #expect(two.positional("TO") == "b")
    }

    @Test("hidden options are accepted")
    func hiddenOption() throws {
        #expect(try Fixture.parse(["delete", "--trace-ldap", "ada"]).flag("--trace-ldap"))
    }

    @Test("options are read by any of their names")
    func anyName() throws {
        let parsed = try Fixture.parse(["-b", "dc=example,dc=com", "find", "-l", "7", "jo"])
        #expect(parsed.value("-b") == parsed.value("--base"))
        #expect(parsed.value("-l") == "7")
        #expect(parsed.value("--limit") == "7")
        #expect(!parsed.flag("-x"))
    }

    @Test("a parser without global options")
    func noGlobalOptions() throws {
        let parser = CommandLineParser(programName: "mini", commands: [Fixture.delete])
        let parsed = try parser.parse(["delete", "--yes", "ada"])
        #expect(parsed.flag("--yes"))
        #expect(parsed.positional("UID") == "ada")
    }

    @Test("unicode passes through unchanged")
    func unicode() throws {
        let parsed = try Fixture.parse(["find", "Zoë", "--format=日本語", "Ådne", "👩‍💻"])
        #expect(parsed.positionals("QUERY") == ["Zoë", "Ådne", "👩‍💻"])
        #expect(parsed.value("--format") == "日本語")
    }
}

@Suite("Asking for help")
struct HelpRequestTests {
    @Test("the program's help page", arguments: [["--help"], ["-h"], ["help"], ["-H", "ldap://x", "--help"], ["help", "--help"], ["-xh"], ["help", "help"]])
    func overview(_ arguments: [String]) throws {
        let parsed = try Fixture.parse(arguments)
        #expect(parsed.helpRequested == .overview)
        #expect(parsed.command == nil)
    }

    @Test("a command's help page", arguments: [
        ["help", "find"], ["find", "--help"], ["find", "-h"], ["--help", "find"], ["find", "jo", "-xh"],
        ["-H", "ldap://x", "find", "--limt", "5", "--help"], ["find", "--limit", "--help"], ["find", "--limit", "1", "--limit", "2", "-h"],
        ["help", "find", "--help"],
    ])
    func command(_ arguments: [String]) throws {
        let parsed = try Fixture.parse(arguments)
        #expect(parsed.helpRequested == .command(Fixture.find))
        #expect(parsed.command == Fixture.find)
    }

    @Test("help wins over a missing argument or an unknown command")
    func helpWinsOverErrors() throws {
        #expect(try Fixture.parse(["reach", "--help"]).helpRequested == .command(Fixture.reach))
        #expect(try Fixture.parse(["fnd", "--help"]).helpRequested == .overview)
    }

    @Test("-h or --help as an option's value, after -- or after a remainder option is not a request for help")
    func notHelp() throws {
        #expect(try Fixture.parse(["find", "--format", "-h", "jo"]).helpRequested == nil)
        #expect(try Fixture.parse(["find", "--", "--help"]).helpRequested == nil)
        #expect(try Fixture.parse(["reach", "email", "ada", "--exec", "mutt", "--help"]).helpRequested == nil)
    }

    @Test("help requests render the matching page")
    func rendering() throws {
        let parser = Fixture.parser
        #expect(parser.help(for: .overview) == parser.help())
        #expect(parser.help(for: .command(Fixture.find), width: 60) == parser.help(for: Fixture.find, width: 60))
    }
}
