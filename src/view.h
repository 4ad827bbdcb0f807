/* view.h -- placeholder: the helper writing the view module replaces this file. */
#ifndef ARBITER_VIEW_H
#define ARBITER_VIEW_H
#endif
