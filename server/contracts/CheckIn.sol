// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Daily check-in of the rewards programme.
/// @notice One call per address per UTC day. Not payable, holds and moves no tokens, asks for no
/// allowance: the wallet prompt a user sees is this call and nothing else. `memberTag` is an opaque
/// per-user value issued by the server (32 random bytes stored per user, not derived from the user
/// id), so the server attributes the check-in to its user from the event alone, without asking the
/// wallet for a signature. A tag is public once used: anyone may check in "for" a user, so a
/// check-in proves nothing about which wallet the user owns (claims name the user's own check-in).
contract CheckIn {
    /// @notice UTC day (unix time / 86400) of each address's last check-in, plus one (0: never).
    mapping(address => uint64) private lastDayPlusOne;

    event CheckedIn(address indexed wallet, bytes32 indexed memberTag, uint64 day);

    error AlreadyCheckedIn(uint64 day);

    /// @notice The current UTC day number of the chain.
    function today() public view returns (uint64) {
        return uint64(block.timestamp / 1 days);
    }

    /// @notice True when `wallet` has checked in during the current UTC day.
    function checkedInToday(address wallet) external view returns (bool) {
        return lastDayPlusOne[wallet] == today() + 1;
    }

    function checkIn(bytes32 memberTag) external {
        uint64 day = today();
        if (lastDayPlusOne[msg.sender] == day + 1) revert AlreadyCheckedIn(day);
        lastDayPlusOne[msg.sender] = day + 1;
        emit CheckedIn(msg.sender, memberTag, day);
    }
}
