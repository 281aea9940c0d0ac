// SPDX-License-Identifier: Apache-2.0
// aesip_check.vh: elaboration-time parameter checks, portable across Verilator, Icarus
// Verilog and Yosys.
//
// Usage, inside a module's generate region (the file is included once per file that
// uses it; include directory rtl/common):
//
//   `include "aesip_check.vh"
//   ...
//   generate
//       `AESIP_CHECK(LANES >= 2, aes_mode_multi_LANES_below_2, "aes_mode_multi: LANES must be >= 2")
//   endgenerate
//
//   COND : a constant expression over parameters that legal parameters satisfy; it must
//          not contain a comma outside parentheses (it is a macro argument)
//   ID   : a unique identifier naming the violation: the generate block's name and, under
//          Icarus, the name of the missing module reported (see below)
//   MSG  : a string literal (no comma in it): the message Verilator and Yosys report
//
// When COND is false, elaboration stops:
//   * Verilator and Yosys run the elaboration-time system task $error(MSG). Verilator
//     reports it as warning USERERROR ("%Warning-USERERROR: file:line: MSG", exit status
//     1); a build with -Wno-fatal must add -Werror-USERERROR (aesip.sim does), or it
//     would only warn. Yosys prints "ERROR: MSG" and exits with status 1.
//   * Icarus Verilog 11 has no elaboration-time system tasks (a $error in a generate
//     block is a syntax error there), so under __ICARUS__ the block instantiates a module
//     named ID, which does not exist: "error: Unknown module type: ID".
// When COND holds, the generate block does not exist and nothing is elaborated.
//
// No include guard on purpose: every file that uses the macro includes this header and
// redefines it identically. Icarus 11 crashes (segmentation fault) when a file it loads
// from a -y library directory uses a macro defined only while reading an earlier file.
`ifdef __ICARUS__
`define AESIP_CHECK(COND, ID, MSG) if (!(COND)) begin : ID ID u_param_error (); end
`else
`define AESIP_CHECK(COND, ID, MSG) if (!(COND)) begin : ID $error(MSG); end
`endif
